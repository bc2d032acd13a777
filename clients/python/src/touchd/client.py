"""The blocking client: one socket, read only when the caller waits for something.

    with touchd.Client("/run/touchd/touchd.sock") as client:
        client.subscribe(events=["touch", "gesture"])
        for event in client.events():
            ...

Not thread-safe: use a client from one thread at a time (or one client per thread).
"""

from __future__ import annotations

import socket
import time
from collections import deque
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from .backoff import NO_RETRY, RETRIED_CONNECT_ERRNOS, Backoff, RetrySchedule, gave_up
from .errors import ConnectFailed, ConnectionLost, ProtocolError, Refused, TouchdTimeout
from .messages import DeviceInfo, Event, Goodbye, Hello, Reconnected, Reply
from .protocol import (
    DEFAULT_MAX_LINE_BYTES,
    Answer,
    Session,
    add_region_fields,
    check_pong,
    check_timeout,
    default_socket_path,
    reply_devices,
    reply_scene,
    reply_version,
    subscription_fields,
)

_READ_SIZE = 65536


class _WaitExpired(Exception):
    """A read's deadline passed (turned into a TouchdTimeout naming what was awaited)."""



class Client:
    """A blocking connection to touchd.

    Every wait has a bound: connecting, the hello, each send and each reply take at most `timeout` seconds
    (`TouchdTimeout`). Waiting for an event is bounded by the `timeout` given to `next_event`/`events`; without
    one it lasts until an event comes or the connection ends (an idle touchscreen sends nothing, for hours).

    With `reconnect` (a `Backoff`), connecting is retried while the socket is missing, refuses or is busy, and a
    lost connection is made again on the next call: a subscription is renewed and the event stream yields a
    `Reconnected` marker. The waits between attempts start afresh only after a connection that lived
    (`Backoff.reset_after`). A request that was in flight when the connection was lost is *not* resent: it raises
    `ConnectionLost` (it may or may not have been carried out); the next call reconnects.
    """

    def __init__(
        self,
        path: str | None = None,
        *,
        timeout: float = 10.0,
        reconnect: Backoff | None = None,
        max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
    ) -> None:
        self.path = path if path is not None else default_socket_path()
        self.timeout = check_timeout(timeout)
        self.reconnect = reconnect
        self.max_line_bytes = max_line_bytes
        self._sock: socket.socket | None = None
        self._session = Session(max_line_bytes)
        self._events: deque[Event] = deque()
        self._subscription: dict[str, Any] | None = None
        self._closed = False
        self._schedule = RetrySchedule(reconnect or NO_RETRY)
        self._retry_at = 0.0
        """When the next connection attempt may be made (monotonic seconds)."""
        self._connected_at: float | None = None
        """When the current connection's hello came; None once its end has been accounted for."""
        self._lost_at = 0.0
        self._hello, _ = self._connect()

    # Connection

    @property
    def hello(self) -> Hello:
        """The hello of the current connection (the newest, after a reconnect)."""
        return self._hello

    @property
    def connected(self) -> bool:
        return self._sock is not None

    def close(self) -> None:
        """Closes the connection; the client cannot be used afterwards. Idempotent."""
        self._closed = True
        self._drop("the client was closed")

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __del__(self) -> None:
        if getattr(self, "_sock", None) is not None:
            self._drop("the client was garbage-collected")

    def _connect(self, deadline: float | None = None) -> tuple[Hello, int]:
        """Connects and reads the hello, from `_retry_at` on and retrying per the schedule; sets the socket and a
        fresh session. Returns the hello and the number of attempts it took. Raises `_WaitExpired` when the next
        attempt would come after `deadline`."""
        attempts = 0
        while True:
            _wait_until(self._retry_at, deadline)
            attempts += 1
            try:
                hello = self._connect_once()
            except (ConnectFailed, ConnectionLost) as error:
                retriable = isinstance(error, ConnectionLost) or error.errno in RETRIED_CONNECT_ERRNOS
                delay = self._schedule.attempt_failed() if retriable else None
                if delay is None:
                    if isinstance(error, ConnectFailed):
                        raise ConnectFailed(self.path, error.reason, error.errno, attempts) from None
                    raise
                self._retry_at = time.monotonic() + delay
                continue
            self._connected_at = time.monotonic()
            return hello, attempts

    def _connect_once(self) -> Hello:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        # A timeout makes the socket non-blocking inside: a full backlog is EAGAIN at once, not a hang.
        sock.settimeout(self.timeout)
        try:
            sock.connect(self.path)
        except TimeoutError:
            sock.close()
            raise TouchdTimeout("connect", self.timeout) from None
        except OSError as error:
            sock.close()
            raise ConnectFailed(self.path, error.strerror or str(error), error.errno) from None
        self._sock = sock
        self._session = Session(self.max_line_bytes)
        deadline = time.monotonic() + self.timeout
        try:
            hello: Hello | None = None
            while hello is None:
                for item in self._read(deadline):
                    if isinstance(item, Hello):
                        hello = item
                    elif not isinstance(item, (Answer, Goodbye)):
                        self._events.append(item)  # none before a subscribe; kept all the same
            return hello
        except _WaitExpired:
            self._drop("no hello")
            raise TouchdTimeout("hello", self.timeout) from None
        except ConnectionLost as lost:
            raise ConnectionLost("touchd closed the connection before its hello", lost.goodbye) from None

    def _drop(self, reason: str) -> ConnectionLost:
        """Closes the socket (if open) and marks the session lost."""
        if self._sock is not None:
            self._lost_at = time.monotonic()
            try:
                self._sock.close()
            finally:
                self._sock = None
        return self._session.connection_lost(reason)

    def _ensure_connected(self, deadline: float | None = None) -> None:
        if self._sock is not None:
            return
        if self._closed:
            raise ConnectionLost("the client was closed")
        lost = self._session.lost
        if self.reconnect is None:
            raise lost or ConnectionLost("not connected")
        self._reconnect(deadline)

    def _reconnect(self, deadline: float | None) -> None:
        if self._connected_at is not None:
            wait = self._schedule.connection_ended(self._lost_at - self._connected_at)
            self._connected_at = None
            if wait is None:
                ended = gave_up(self._session.lost or ConnectionLost("not connected"), self._schedule)
                self._schedule = RetrySchedule(self._schedule.policy)  # the next call tries again, as afresh
                raise ended
            self._retry_at = self._lost_at + wait
        try:
            self._hello, attempts = self._connect(deadline)
        except ConnectFailed:
            self._schedule = RetrySchedule(self._schedule.policy)
            raise
        if self._subscription is not None:
            self._events.append(Reconnected(self._hello, attempts))
            try:
                self._call("subscribe", self._subscription, self.timeout)
            except ConnectionLost:
                pass  # it ended again at once: the next call reconnects, after the schedule's next wait

    # Reading

    def _read(self, deadline: float | None) -> list[Any]:
        """What the next chunk from the socket completes. Raises `_WaitExpired` at the deadline and
        `ConnectionLost` (after dropping the socket) when the connection ends or fails."""
        sock = self._sock
        if sock is None:
            raise self._session.lost or ConnectionLost("not connected")
        if self._session.failure is not None:
            self._drop("touchd sent what this client cannot read")
            raise self._session.failure
        if deadline is not None:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise _WaitExpired
            sock.settimeout(remaining)
        else:
            sock.settimeout(None)
        try:
            data = sock.recv(_READ_SIZE)
        except TimeoutError:
            raise _WaitExpired from None
        except OSError as error:
            raise self._drop(f"the connection failed: {error.strerror or error}") from None
        if not data:
            raise self._drop("touchd closed the connection")
        try:
            return self._session.receive(data)
        except (ProtocolError, Refused):
            self._drop("touchd sent what this client cannot read")
            raise

    def _send(self, data: bytes, timeout: float) -> None:
        sock = self._sock
        assert sock is not None
        sock.settimeout(timeout)
        try:
            sock.sendall(data)
        except TimeoutError:
            # Part of the line may be sent: the stream cannot carry another request.
            self._drop("a send timed out")
            raise TouchdTimeout("send", timeout) from None
        except OSError as error:
            raise self._drop(f"the connection failed: {error.strerror or error}") from None

    # Requests

    def request(self, op: str, fields: Mapping[str, Any] | None = None, *, timeout: float | None = None) -> Reply:
        """Sends a request and waits for its reply (events that arrive meanwhile are kept for `next_event`).

        Returns the reply when it is ok. Raises the `RequestError` subclass of its error code otherwise,
        `TouchdTimeout` when no reply came within `timeout` (default: the client's; the connection stays, and a
        late reply is dropped), and `ConnectionLost` when the connection ended with the request in flight.
        """
        self._ensure_connected()
        return self._call(op, fields, check_timeout(timeout) if timeout is not None else self.timeout)

    def _call(self, op: str, fields: Mapping[str, Any] | None, timeout: float) -> Reply:
        outgoing = self._session.request(op, fields)
        deadline = time.monotonic() + timeout
        try:
            self._send(outgoing.data, timeout)
        except ConnectionLost as lost:
            raise lost.for_request(op, outgoing.id) from None
        answer: Answer | None = None
        while answer is None:
            try:
                items = self._read(deadline)
            except _WaitExpired:
                self._session.abandon(outgoing.id)
                raise TouchdTimeout(op, timeout) from None
            except ConnectionLost as lost:
                self._session.take_in_flight()
                raise lost.for_request(op, outgoing.id) from None
            for item in items:
                if isinstance(item, Answer):
                    if item.id == outgoing.id:
                        answer = item
                elif not isinstance(item, (Hello, Goodbye)):
                    self._events.append(item)
        return answer.result()

    def ping(self, *, timeout: float | None = None) -> None:
        """Asks touchd to answer; raises if it does not (in time)."""
        check_pong(self.request("ping", timeout=timeout))

    def devices(self) -> list[DeviceInfo]:
        """The devices touchd reads now."""
        return reply_devices(self.request("devices"))

    def get_scene(self) -> dict[str, Any]:
        """The scene in force, in the scene file format, with dragged regions where they are now."""
        return reply_scene(self.request("get-scene"))

    def set_scene(self, scene: Mapping[str, Any]) -> int:
        """Replaces the whole scene; returns the new scene version. Needs the scene permission."""
        return reply_version(self.request("set-scene", {"scene": scene}))

    def add_region(self, region: Mapping[str, Any], parent: str | None = None, *, transient: bool = False) -> int:
        """Adds a region (at the top level, or as the last child of `parent`); returns the new scene version.
        `transient`: touchd removes the region when this connection closes, however it closes (a crash too), so a
        rerun does not find it left over (`duplicate id`); a reconnect does not bring it back."""
        return reply_version(self.request("add-region", add_region_fields(region, parent, transient)))

    def update_region(self, region_id: str, changes: Mapping[str, Any]) -> int:
        """Changes fields of a region (None resets a field to its default; `id` cannot change)."""
        return reply_version(self.request("update-region", {"region": region_id, "set": changes}))

    def remove_region(self, region_id: str) -> int:
        """Removes a region and its children; their fingers get `cancel`."""
        return reply_version(self.request("remove-region", {"region": region_id}))

    # Events

    def subscribe(
        self,
        events: Iterable[str] | None = None,
        *,
        regions: Iterable[str] | None = None,
        devices: Iterable[str] | None = None,
        unassigned: bool | None = None,
        fields: Iterable[str] | None = None,
    ) -> None:
        """Subscribes (replacing an earlier subscription): event kinds (`touch`, `gesture`, `frame`, `region`,
        `device`, `scene`), region ids, device keys; None or empty means all. `fields`: the keys of touch and
        gesture lines wanted beyond their core (None: whole lines; empty: the core alone); the keys left out read
        as None in `Touch` and `Gesture` (`device` as ""). Renewed after each reconnect."""
        request = subscription_fields(events, regions, devices, unassigned, fields)
        self.request("subscribe", request)
        self._subscription = request

    def unsubscribe(self) -> None:
        self.request("unsubscribe")
        self._subscription = None

    def next_event(self, timeout: float | None = None) -> Event:
        """The next event. Waits at most `timeout` seconds (`TouchdTimeout`), or without bound when None.

        Events that arrived before a connection ended come first; then, with `reconnect`, the client connects
        again, renews the subscription and returns a `Reconnected` marker; without it, `ConnectionLost` is raised.
        """
        if self._events:
            return self._events.popleft()
        bound = check_timeout(timeout) if timeout is not None else None
        deadline = time.monotonic() + bound if bound is not None else None
        while not self._events:
            if self._sock is None:
                try:
                    self._ensure_connected(deadline)
                except _WaitExpired:
                    raise TouchdTimeout("event", bound or 0.0) from None
                continue
            try:
                items = self._read(deadline)
            except _WaitExpired:
                raise TouchdTimeout("event", bound or 0.0) from None
            except ConnectionLost:
                self._session.take_in_flight()
                continue
            for item in items:
                if not isinstance(item, (Answer, Hello, Goodbye)):
                    self._events.append(item)
        return self._events.popleft()

    def events(self, idle_timeout: float | None = None) -> Iterator[Event]:
        """The events, as they come. Ends when none came for `idle_timeout` seconds (never, when None). Raises as
        `next_event` does when the connection ends."""
        while True:
            try:
                event = self.next_event(idle_timeout)
            except TouchdTimeout:
                return
            yield event


def _wait_until(moment: float, deadline: float | None) -> None:
    """Sleeps until `moment` (monotonic seconds); raises `_WaitExpired` (at the deadline) when it comes later."""
    now = time.monotonic()
    if deadline is not None and moment > deadline:
        time.sleep(max(deadline - now, 0))
        raise _WaitExpired
    if moment > now:
        time.sleep(moment - now)
