"""The protocol without I/O: line framing, request encoding, and one connection's state (the hello, ids in flight,
replies matched to requests, events set apart). The blocking and asyncio clients only move bytes through it.

A `Session` is fed the bytes read from the socket and returns what they mean, in order::

    session = Session()
    outgoing = session.request("ping")          # outgoing.data goes to the socket
    for item in session.receive(chunk):         # whatever the socket gave, in any split
        ...                                     # Hello, Answer (a reply matched to its request), an event, Goodbye
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final, TypeAlias

from .errors import ConnectionLost, ProtocolError, Refused, RequestError, TouchdError, request_error
from .messages import (
    PROTOCOL_VERSION,
    DeviceAdded,
    DeviceInfo,
    DeviceRemoved,
    Frame,
    Gesture,
    Goodbye,
    Hello,
    RegionMoved,
    Reply,
    SceneChanged,
    Touch,
    UnknownEvent,
    decode_device_object,
    decode_line,
)

DEFAULT_MAX_LINE_BYTES: Final = 64 * 1024 * 1024
"""The longest line the client takes from touchd. A reply can hold a whole scene, so the bound is generous; it
exists so that whatever listens on the socket cannot make the client buffer without end."""


class LineFramer:
    """Splits a byte stream into `\\n`-terminated lines, whatever the chunks' boundaries."""

    def __init__(self, max_line_bytes: int = DEFAULT_MAX_LINE_BYTES) -> None:
        if max_line_bytes < 1:
            raise ValueError("max_line_bytes must be positive")
        self.max_line_bytes = max_line_bytes
        self._buffer = bytearray()

    def feed(self, data: bytes) -> list[bytes]:
        """The lines `data` completes (without their newlines). A line longer than `max_line_bytes` is a
        `ProtocolError`, raised as soon as the buffered part of it is too long."""
        lines: list[bytes] = []
        start = 0
        while True:
            end = data.find(b"\n", start)
            if end < 0:
                break
            if self._buffer:
                self._buffer += data[start:end]
                line = bytes(self._buffer)
                self._buffer.clear()
            else:
                line = data[start:end]
            if len(line) > self.max_line_bytes:
                raise ProtocolError(f"a line from touchd of {len(line)} bytes, more than {self.max_line_bytes}")
            lines.append(line)
            start = end + 1
        self._buffer += data[start:]
        if len(self._buffer) > self.max_line_bytes:
            raise ProtocolError(f"a line from touchd of more than {self.max_line_bytes} bytes")
        return lines

    @property
    def buffered(self) -> int:
        """Bytes of an unfinished line."""
        return len(self._buffer)


def encode_request(op: str, request_id: int, fields: Mapping[str, Any] | None = None) -> bytes:
    """One request line: compact JSON with `op` and `id` first, ASCII only (so no byte of it can be a newline
    inside a string), `\\n`-terminated. NaN and infinities are refused (`ValueError`): they are not JSON."""
    if not op:
        raise ValueError("a request needs an op")
    message: dict[str, Any] = {"op": op, "id": request_id}
    for key, value in (fields or {}).items():
        if key in message:
            raise ValueError(f"'{key}' is set by the client, not by the request's fields")
        message[key] = value
    return json.dumps(message, separators=(",", ":"), ensure_ascii=True, allow_nan=False).encode("ascii") + b"\n"


@dataclass(frozen=True, slots=True)
class Outgoing:
    """A request ready to send: `data` is its line."""

    id: int
    op: str
    data: bytes


@dataclass(frozen=True, slots=True)
class Answer:
    """A reply matched to the request it answers."""

    id: int
    op: str
    reply: Reply

    def result(self) -> Reply:
        """The reply if it is ok; otherwise the `RequestError` subclass of its code, raised."""
        if self.reply.ok:
            return self.reply
        raise self.error()

    def error(self) -> RequestError:
        return request_error(self.reply.error_code or "", self.reply.error_message or "", self.op, self.id)


WireEvent: TypeAlias = Touch | Gesture | Frame | RegionMoved | DeviceAdded | DeviceRemoved | SceneChanged | UnknownEvent
Received: TypeAlias = Hello | Answer | Goodbye | WireEvent


class Session:
    """The protocol state of one connection.

    Rules it enforces (docs/protocol.md, "The socket"):
    - the first line is a hello of protocol 1, or a goodbye (`Refused` is raised: touchd turned the peer away);
    - every request gets an id (1, 2, 3 … for this connection) and exactly one reply, matched by that id however
      many events come in between. touchd answers a client's requests in order, so a reply without an id (touchd
      could not read the request's id, as for `line-too-long`) answers the oldest request in flight;
    - a reply to an abandoned request (its wait timed out, or was cancelled) is dropped; a reply to no request
      is a `ProtocolError`;
    - after a goodbye the connection is over; `connection_lost` says which requests got no answer.
    """

    def __init__(self, max_line_bytes: int = DEFAULT_MAX_LINE_BYTES) -> None:
        self._framer = LineFramer(max_line_bytes)
        self._next_id = 1
        # Every request without its reply yet, oldest first (dicts keep insertion order): id → (op, abandoned).
        self._outstanding: dict[int, tuple[str, bool]] = {}
        self._lost: ConnectionLost | None = None
        self._failure: TouchdError | None = None
        self.hello: Hello | None = None
        self.goodbye: Goodbye | None = None

    @property
    def in_flight(self) -> dict[int, str]:
        """Requests sent and still awaited (not abandoned): id → op."""
        return {key: op for key, (op, abandoned) in self._outstanding.items() if not abandoned}

    @property
    def lost(self) -> ConnectionLost | None:
        """Why the connection is over, once it is."""
        return self._lost

    def request(self, op: str, fields: Mapping[str, Any] | None = None) -> Outgoing:
        """Gives the request an id, records it as in flight, and returns its line."""
        if self._lost is not None:
            raise self._lost
        request_id = self._next_id
        data = encode_request(op, request_id, fields)
        self._next_id += 1
        self._outstanding[request_id] = (op, False)
        return Outgoing(request_id, op, data)

    def abandon(self, request_id: int) -> None:
        """The caller stopped waiting for this request (timeout, cancellation): its reply will be dropped."""
        if request_id in self._outstanding:
            self._outstanding[request_id] = (self._outstanding[request_id][0], True)

    @property
    def failure(self) -> TouchdError | None:
        """The error of a line that came after good ones in one chunk; raised by the next `receive`."""
        return self._failure

    def receive(self, data: bytes) -> list[Received]:
        """What the bytes read from the socket complete, in order. Raises `ProtocolError` for a line it cannot
        read and `Refused` for a goodbye in place of the hello. When good lines precede the bad one in `data`,
        they are returned and the error waits in `failure` (the next call raises it): nothing read is lost."""
        if self._failure is not None:
            raise self._failure
        items: list[Received] = []
        try:
            for line in self._framer.feed(data):
                item = self._line(line)
                if item is not None:
                    items.append(item)
        except (ProtocolError, Refused) as error:
            self._failure = error
            if not items:
                raise
        return items

    def _line(self, line: bytes) -> Received | None:
        message = decode_line(line)
        if self.hello is None:
            return self._first(message)
        if isinstance(message, Reply):
            return self._match(message)
        if isinstance(message, Hello):
            raise ProtocolError("a second hello on one connection")
        if isinstance(message, Goodbye):
            self.goodbye = message
        return message

    def _first(self, message: object) -> Hello:
        if isinstance(message, Goodbye):
            self.goodbye = message
            self._lost = ConnectionLost("touchd refused the connection", message)
            raise Refused(message)
        if not isinstance(message, Hello):
            raise ProtocolError(f"expected a hello first, got {type(message).__name__}")
        if message.protocol != PROTOCOL_VERSION:
            raise ProtocolError(f"touchd speaks protocol {message.protocol}; this client speaks {PROTOCOL_VERSION}")
        self.hello = message
        return message

    def _match(self, reply: Reply) -> Answer | None:
        if reply.id is None:
            # touchd could not read the request's id; it answers in order, so this is the oldest request's reply.
            if not self._outstanding:
                raise ProtocolError(f"a reply without an id and no request in flight: {reply.error_code}")
            request_id = next(iter(self._outstanding))
        elif isinstance(reply.id, int) and reply.id in self._outstanding:
            request_id = reply.id
        else:
            raise ProtocolError(f"a reply to id {reply.id!r}, which no request in flight has")
        op, abandoned = self._outstanding.pop(request_id)
        return None if abandoned else Answer(request_id, op, reply)

    def connection_lost(self, reason: str) -> ConnectionLost:
        """The socket ended (EOF or an error). Returns the loss (with the goodbye, if there was one); the requests
        that were in flight are in `in_flight` until `take_in_flight`."""
        if self._lost is None:
            self._lost = ConnectionLost(reason, self.goodbye)
        return self._lost

    def take_in_flight(self) -> list[tuple[int, str]]:
        """The requests still awaited that will never be answered on this connection, oldest first; forgets all."""
        pending = list(self.in_flight.items())
        self._outstanding.clear()
        return pending


DEFAULT_SOCKET_PATH: Final = "/run/touchd/touchd.sock"


def default_socket_path() -> str:
    """`$TOUCHD_SOCKET`, or touchd's default socket."""
    return os.environ.get("TOUCHD_SOCKET") or DEFAULT_SOCKET_PATH


def check_timeout(seconds: float) -> float:
    """A wait's bound must be a positive, finite number of seconds."""
    if not (isinstance(seconds, (int, float)) and 0 < seconds < math.inf):
        raise ValueError(f"a timeout must be a positive number of seconds, not {seconds!r}")
    return float(seconds)


# What the requests send and what their replies carry, shared by both clients.


def subscription_fields(
    events: Iterable[str] | None = None,
    regions: Iterable[str] | None = None,
    devices: Iterable[str] | None = None,
    unassigned: bool | None = None,
    fields: Iterable[str] | None = None,
) -> dict[str, Any]:
    """The fields of a `subscribe` request; absent or empty lists mean everything, except `fields`: None gives
    whole lines, an empty list the core keys alone (docs/protocol.md, "Field selection")."""
    request: dict[str, Any] = {}
    for key, values in (("events", events), ("regions", regions), ("devices", devices), ("fields", fields)):
        if values is None:
            continue
        if isinstance(values, str):
            raise TypeError(f"{key} must be a list of strings, not one string")
        items = list(values)
        if items or key == "fields":
            request[key] = items
    if unassigned is not None:
        request["unassigned"] = bool(unassigned)
    return request


def add_region_fields(region: Mapping[str, Any], parent: str | None, transient: bool) -> dict[str, Any]:
    """The fields of an `add-region` request; `transient` is sent only when true (docs/protocol.md)."""
    fields: dict[str, Any] = {"region": region}
    if parent is not None:
        fields["parent"] = parent
    if transient:
        fields["transient"] = True
    return fields


def reply_version(reply: Reply) -> int:
    """The scene version a scene change's reply reports."""
    version = reply.raw.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise ProtocolError(f"a scene change's reply without an integer 'version': {version!r}")
    return version


def reply_scene(reply: Reply) -> dict[str, Any]:
    """The scene a `get-scene` reply carries (the scene file format)."""
    scene = reply.raw.get("scene")
    if not isinstance(scene, dict):
        raise ProtocolError(f"a get-scene reply without a 'scene' object: {scene!r}")
    return scene


def reply_devices(reply: Reply) -> list[DeviceInfo]:
    """The devices a `devices` reply lists."""
    devices = reply.raw.get("devices")
    if not isinstance(devices, list):
        raise ProtocolError(f"a devices reply without a 'devices' list: {devices!r}")
    return [decode_device_object(item) for item in devices]


def check_pong(reply: Reply) -> None:
    if reply.raw.get("pong") is not True:
        raise ProtocolError(f"a ping's reply without \"pong\": true: {dict(reply.raw)!r}")
