"""What the README promises for a line the client cannot read: a `ProtocolError`, from both clients alike, for an
event being awaited and for a request in flight; the connection is over afterwards (`ConnectionLost`)."""

from __future__ import annotations

import socket
from collections.abc import Callable

import pytest

import touchd
from support import HELLO, Script, run_async

Peer = Callable[[Script], str]
LIMIT = 1 << 20  # the clients' max_line_bytes here

UNREADABLE = {
    "an over-long line": (b"x" * (2 * LIMIT), "more than 1048576 bytes"),
    "invalid UTF-8": (b'{"type":"down","device":"\xff\xfe","finger":1,"time_us":1,"x":0,"y":0}\n', "unreadable line"),
    "a reply to an unknown id": (b'{"type":"reply","id":99,"ok":true}\n', "a reply to id 99"),
    "garbage": (b"garbage\n", "unreadable line"),
    "deep nesting": (b"[" * 100_000 + b"]" * 100_000 + b"\n", "unreadable line"),
    "NaN and Infinity": (b'{"type":"down","finger":1,"time_us":1,"x":NaN,"y":Infinity}\n', "NaN is not JSON"),
}


def hello_then(line: bytes, after_request: bool) -> Script:
    """Says hello, then (after the client's request, when asked) sends `line`, and waits for the client to leave."""

    def script(connection: socket.socket) -> None:
        try:
            connection.sendall(HELLO)
            if after_request:
                connection.recv(1 << 16)
            connection.sendall(line)
            while connection.recv(1 << 16):
                pass
        except OSError:
            pass  # the client hung up in the middle of the long line

    return script


@pytest.mark.parametrize("case", UNREADABLE)
def test_an_unreadable_event_line_is_a_protocol_error_for_both_clients(peer: Peer, case: str) -> None:
    line, message = UNREADABLE[case]
    path = peer(hello_then(line, after_request=False))
    client = touchd.Client(path, timeout=2, max_line_bytes=LIMIT)
    with pytest.raises(touchd.ProtocolError, match=message):
        client.next_event(timeout=5)
    with pytest.raises(touchd.ConnectionLost, match="cannot read"):
        client.next_event(timeout=5)
    client.close()

    async def asynchronous() -> None:
        client = await touchd.AsyncClient.connect(path, timeout=2, max_line_bytes=LIMIT)
        try:
            with pytest.raises(touchd.ProtocolError, match=message):
                await client.next_event(timeout=5)
            with pytest.raises(touchd.ConnectionLost, match="cannot read"):
                await client.next_event(timeout=5)
        finally:
            await client.close()

    run_async(asynchronous())


@pytest.mark.parametrize("case", UNREADABLE)
def test_an_unreadable_line_in_place_of_a_reply_is_a_protocol_error_for_both_clients(peer: Peer, case: str) -> None:
    line, message = UNREADABLE[case]
    path = peer(hello_then(line, after_request=True))
    client = touchd.Client(path, timeout=5, max_line_bytes=LIMIT)
    with pytest.raises(touchd.ProtocolError, match=message):
        client.ping()
    client.close()

    async def asynchronous() -> None:
        client = await touchd.AsyncClient.connect(path, timeout=5, max_line_bytes=LIMIT)
        try:
            with pytest.raises(touchd.ProtocolError, match=message):
                await client.ping()
        finally:
            await client.close()

    run_async(asynchronous())
