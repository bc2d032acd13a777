"""The asyncio client: a reader task routes replies to their requests by id and events to a queue, so any number
of requests can be awaited at once while events stream in.

    async with await touchd.aio.AsyncClient.connect("/run/touchd/touchd.sock") as client:
        await client.subscribe(events=["gesture"])
        async for event in client.events():
            ...
"""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import AsyncIterator, Iterable, Mapping
from dataclasses import dataclass
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
DEFAULT_MAX_QUEUED_EVENTS = 10_000


@dataclass(frozen=True, slots=True)
class _Lost:
    """In the event queue: connection `generation` ended here; `error` when it ended on a line this client cannot
    read (raised by `next_event`, as the blocking client raises it)."""

    generation: int
    lost: ConnectionLost
    error: ProtocolError | None = None


class _WaitExpired(Exception):
    """The next connection attempt would come after the caller's deadline."""


class AsyncClient:
    """An asyncio connection to touchd; make one with `await AsyncClient.connect(...)`.

    Timeouts, reconnection and in-flight requests behave as in the blocking `Client`: connecting, the hello, each
    send and each reply are bounded by `timeout`; a request in flight when the connection ends raises
    `ConnectionLost` and is never resent; with `reconnect`, the next call connects again, renews the subscription
    and the event stream yields `Reconnected`.

    Events wait in a queue; once it holds `max_queued_events` the client stops reading the socket (the read under
    way still adds its lines, 64 KiB at most) until the program takes events, so touchd sees a slow reader (it coalesces moves and, at worst, disconnects;
    docs/protocol.md, "Slow clients"). Replies wait behind unread events then: read the events you subscribe to.
    """

    def __init__(
        self,
        path: str | None = None,
        *,
        timeout: float = 10.0,
        reconnect: Backoff | None = None,
        max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
        max_queued_events: int = DEFAULT_MAX_QUEUED_EVENTS,
    ) -> None:
        """Sets up a client without connecting; `connect()` (or `async with`) connects."""
        self.path = path if path is not None else default_socket_path()
        self.timeout = check_timeout(timeout)
        self.reconnect = reconnect
        self.max_line_bytes = max_line_bytes
        if max_queued_events < 1:
            raise ValueError("max_queued_events must be positive")
        self.max_queued_events = max_queued_events
        self._session = Session(max_line_bytes)
        self._session.connection_lost("not connected yet")
        self._writer: asyncio.StreamWriter | None = None
        self._reader_task: asyncio.Task[None] | None = None
        self._pending: dict[int, asyncio.Future[Answer]] = {}
        self._events: asyncio.Queue[Event | _Lost] = asyncio.Queue()
        self._room = asyncio.Event()
        self._room.set()
        self._generation = 0
        self._connect_lock = asyncio.Lock()
        self._subscription: dict[str, Any] | None = None
        self._closed = False
        self._hello: Hello | None = None
        self._schedule = RetrySchedule(reconnect or NO_RETRY)
        self._retry_at = 0.0
        """When the next connection attempt may be made (monotonic seconds)."""
        self._connected_at: float | None = None
        """When the current connection's hello came; None once its end has been accounted for."""
        self._lost_at = 0.0

    @classmethod
    async def connect(
        cls,
        path: str | None = None,
        *,
        timeout: float = 10.0,
        reconnect: Backoff | None = None,
        max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
        max_queued_events: int = DEFAULT_MAX_QUEUED_EVENTS,
    ) -> AsyncClient:
        """Connects (retrying per `reconnect`) and reads the hello."""
        client = cls(
            path,
            timeout=timeout,
            reconnect=reconnect,
            max_line_bytes=max_line_bytes,
            max_queued_events=max_queued_events,
        )
        await client._open()
        return client

    # Connection

    @property
    def hello(self) -> Hello:
        """The hello of the current connection (the newest, after a reconnect)."""
        if self._hello is None:
            raise ConnectionLost("not connected yet")
        return self._hello

    @property
    def connected(self) -> bool:
        return self._session.lost is None

    async def __aenter__(self) -> AsyncClient:
        if self._hello is None:
            await self._open()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    async def close(self) -> None:
        """Closes the connection; the client cannot be used afterwards. Idempotent."""
        self._closed = True
        task = self._reader_task
        if task is not None and not task.done():
            task.cancel()
            try:
                await task
            except asyncio.CancelledError:
                pass
        self._close_writer()

    def _close_writer(self) -> None:
        if self._writer is not None:
            self._writer.close()
            self._writer = None

    async def _open(self, deadline: float | None = None) -> tuple[Hello, int]:
        """Connects from `_retry_at` on, retrying per the schedule; see `Client._connect`."""
        attempts = 0
        while True:
            await _wait_until(self._retry_at, deadline)
            attempts += 1
            try:
                hello = await self._open_once()
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

    async def _open_once(self) -> Hello:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.setblocking(False)
        try:
            # A non-blocking connect on a Unix socket succeeds or fails at once (EAGAIN: the backlog is full).
            sock.connect(self.path)
        except OSError as error:
            sock.close()
            raise ConnectFailed(self.path, error.strerror or str(error), error.errno) from None
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_unix_connection(sock=sock), self.timeout)
        except TimeoutError:
            sock.close()
            raise TouchdTimeout("connect", self.timeout) from None
        session = Session(self.max_line_bytes)
        deadline = time.monotonic() + self.timeout
        hello: Hello | None = None
        leftover: list[Any] = []
        try:
            while hello is None:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise TimeoutError
                data = await asyncio.wait_for(reader.read(_READ_SIZE), remaining)
                if not data:
                    raise ConnectionLost("touchd closed the connection before its hello", session.goodbye)
                for item in session.receive(data):
                    if isinstance(item, Hello):
                        hello = item
                    else:
                        leftover.append(item)  # events cannot come before a subscribe; kept all the same
        except TimeoutError:
            writer.close()
            raise TouchdTimeout("hello", self.timeout) from None
        except (ConnectionLost, ProtocolError, Refused):
            # Before OSError: the connection errors are builtin ConnectionErrors, hence OSErrors, too.
            writer.close()
            raise
        except OSError as error:
            writer.close()
            raise ConnectionLost(f"the connection failed: {error.strerror or error}") from None
        self._session = session
        self._writer = writer
        self._hello = hello
        self._generation += 1
        for item in leftover:
            self._route(item)
        self._reader_task = asyncio.create_task(self._read_loop(reader, writer, session, self._generation))
        return hello

    async def _read_loop(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, session: Session, generation: int
    ) -> None:
        reason = "touchd closed the connection"
        failure: ProtocolError | None = None
        try:
            while True:
                if session.failure is not None:
                    raise session.failure
                if self._events.qsize() >= self.max_queued_events:
                    self._room.clear()
                    await self._room.wait()
                data = await reader.read(_READ_SIZE)
                if not data:
                    break
                for item in session.receive(data):
                    self._route(item)
        except asyncio.CancelledError:
            reason = "the client was closed"
        except OSError as error:
            reason = f"the connection failed: {error.strerror or error}"
        except ProtocolError as error:
            reason = f"touchd sent what this client cannot read: {error}"
            failure = error
        finally:
            lost = session.connection_lost(reason)
            if generation == self._generation:
                self._lost_at = time.monotonic()
            writer.close()
            if self._writer is writer:
                self._writer = None
            for request_id, op in session.take_in_flight():
                future = self._pending.pop(request_id, None)
                if future is not None and not future.done():
                    # What the blocking client's request raises from the same line: the ProtocolError.
                    future.set_exception(ProtocolError(str(failure)) if failure else lost.for_request(op, request_id))
            self._events.put_nowait(_Lost(generation, lost, failure))

    def _route(self, item: Any) -> None:
        if isinstance(item, Answer):
            future = self._pending.pop(item.id, None)
            if future is not None and not future.done():
                future.set_result(item)
        elif not isinstance(item, (Hello, Goodbye)):
            self._events.put_nowait(item)

    async def _ensure_connected(self, deadline: float | None = None) -> None:
        if self._closed:
            raise ConnectionLost("the client was closed")
        if self._session.lost is None:
            return
        if self.reconnect is None:
            raise self._session.lost
        async with self._connect_lock:
            if self._session.lost is None:
                return  # another task reconnected meanwhile
            if self._connected_at is not None:
                wait = self._schedule.connection_ended(self._lost_at - self._connected_at)
                self._connected_at = None
                if wait is None:
                    ended = gave_up(self._session.lost, self._schedule)
                    self._schedule = RetrySchedule(self._schedule.policy)  # the next call tries again, as afresh
                    raise ended
                self._retry_at = self._lost_at + wait
            try:
                hello, attempts = await self._open(deadline)
            except ConnectFailed:
                self._schedule = RetrySchedule(self._schedule.policy)
                raise
            if self._subscription is not None:
                self._events.put_nowait(Reconnected(hello, attempts))
                try:
                    await self._call("subscribe", self._subscription, self.timeout)
                except (ConnectionLost, ProtocolError):
                    pass  # it ended again at once: its end is queued, and the next call reconnects after a wait

    # Requests

    async def request(
        self, op: str, fields: Mapping[str, Any] | None = None, *, timeout: float | None = None
    ) -> Reply:
        """Sends a request and awaits its reply; see `Client.request`. Cancelling the awaiting task abandons the
        request (its reply, if it comes, is dropped)."""
        await self._ensure_connected()
        return await self._call(op, fields, check_timeout(timeout) if timeout is not None else self.timeout)

    async def _call(self, op: str, fields: Mapping[str, Any] | None, timeout: float) -> Reply:
        session = self._session
        writer = self._writer
        if session.lost is not None or writer is None:
            raise session.lost or ConnectionLost("not connected")
        outgoing = session.request(op, fields)
        future: asyncio.Future[Answer] = asyncio.get_running_loop().create_future()
        self._pending[outgoing.id] = future
        deadline = time.monotonic() + timeout
        try:
            writer.write(outgoing.data)
            try:
                await asyncio.wait_for(writer.drain(), timeout)
            except TimeoutError:
                # Part of the line may be sent: the stream cannot carry another request.
                writer.close()
                raise TouchdTimeout("send", timeout) from None
            except OSError:
                pass  # the reader task sees the end and fails the future with ConnectionLost
            try:
                answer = await asyncio.wait_for(future, max(deadline - time.monotonic(), 0))
            except TimeoutError:
                raise TouchdTimeout(op, timeout) from None
        finally:
            if self._pending.pop(outgoing.id, None) is not None:
                session.abandon(outgoing.id)
        return answer.result()

    async def ping(self, *, timeout: float | None = None) -> None:
        check_pong(await self.request("ping", timeout=timeout))

    async def devices(self) -> list[DeviceInfo]:
        return reply_devices(await self.request("devices"))

    async def get_scene(self) -> dict[str, Any]:
        return reply_scene(await self.request("get-scene"))

    async def set_scene(self, scene: Mapping[str, Any]) -> int:
        return reply_version(await self.request("set-scene", {"scene": scene}))

    async def add_region(
        self, region: Mapping[str, Any], parent: str | None = None, *, transient: bool = False
    ) -> int:
        """See `Client.add_region` (`transient`: removed by touchd when this connection closes)."""
        return reply_version(await self.request("add-region", add_region_fields(region, parent, transient)))

    async def update_region(self, region_id: str, changes: Mapping[str, Any]) -> int:
        return reply_version(await self.request("update-region", {"region": region_id, "set": changes}))

    async def remove_region(self, region_id: str) -> int:
        return reply_version(await self.request("remove-region", {"region": region_id}))

    # Events

    async def subscribe(
        self,
        events: Iterable[str] | None = None,
        *,
        regions: Iterable[str] | None = None,
        devices: Iterable[str] | None = None,
        unassigned: bool | None = None,
        fields: Iterable[str] | None = None,
    ) -> None:
        """See `Client.subscribe`."""
        request = subscription_fields(events, regions, devices, unassigned, fields)
        await self.request("subscribe", request)
        self._subscription = request

    async def unsubscribe(self) -> None:
        await self.request("unsubscribe")
        self._subscription = None

    async def next_event(self, timeout: float | None = None) -> Event:
        """The next event; see `Client.next_event`."""
        bound = check_timeout(timeout) if timeout is not None else None
        deadline = time.monotonic() + bound if bound is not None else None
        while True:
            if self._events.empty() and self._session.lost is not None:
                # The end was already taken from the queue: reconnect (per `reconnect`) or raise why it ended.
                await self._reconnect_before(deadline, bound)
            try:
                if deadline is None:
                    item = await self._events.get()
                else:
                    item = await asyncio.wait_for(self._events.get(), max(deadline - time.monotonic(), 0))
            except TimeoutError:
                raise TouchdTimeout("event", bound or 0.0) from None
            if self._events.qsize() < self.max_queued_events:
                self._room.set()
            if not isinstance(item, _Lost):
                return item
            if item.generation == self._generation:
                if item.error is not None:
                    raise item.error
                await self._reconnect_before(deadline, bound)  # raises without `reconnect`; queues Reconnected

    async def _reconnect_before(self, deadline: float | None, bound: float | None) -> None:
        try:
            await self._ensure_connected(deadline)
        except _WaitExpired:
            raise TouchdTimeout("event", bound or 0.0) from None

    async def events(self, idle_timeout: float | None = None) -> AsyncIterator[Event]:
        """The events as they come; ends when none came for `idle_timeout` seconds (never, when None)."""
        while True:
            try:
                event = await self.next_event(idle_timeout)
            except TouchdTimeout:
                return
            yield event


async def _wait_until(moment: float, deadline: float | None) -> None:
    """Sleeps until `moment` (monotonic seconds); raises `_WaitExpired` (at the deadline) when it comes later."""
    now = time.monotonic()
    if deadline is not None and moment > deadline:
        await asyncio.sleep(max(deadline - now, 0))
        raise _WaitExpired
    if moment > now:
        await asyncio.sleep(moment - now)


async def connect(
    path: str | None = None, *, timeout: float = 10.0, reconnect: Backoff | None = None
) -> AsyncClient:
    """`AsyncClient.connect`, shorter."""
    return await AsyncClient.connect(path, timeout=timeout, reconnect=reconnect)
