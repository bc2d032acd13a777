"""Both clients against a scripted peer on a real Unix socket, for what touchd itself never does: a listener that
never speaks, garbage, endless lines, a refusal."""

from __future__ import annotations

import errno
import socket
import time
from collections.abc import Callable
from pathlib import Path

import pytest

import touchd
from support import HELLO, Script, run_async, say, silent


def test_a_listener_that_never_says_hello(peer: Callable[[Script], str]) -> None:
    path = peer(silent)
    attempts: list[Callable[[], object]] = [
        lambda: touchd.Client(path, timeout=0.2),
        lambda: run_async(touchd.AsyncClient.connect(path, timeout=0.2)),
    ]
    for attempt in attempts:
        began = time.monotonic()
        with pytest.raises(touchd.TouchdTimeout) as raised:
            attempt()
        assert raised.value.operation == "hello"
        assert 0.2 <= time.monotonic() - began < 3


def test_goodbye_instead_of_hello_is_refused(peer: Callable[[Script], str]) -> None:
    path = peer(say(b'{"type":"goodbye","code":"too-many-clients","message":"the limit of 28 clients is reached"}\n'))
    with pytest.raises(touchd.Refused) as raised:
        touchd.Client(path, timeout=2)
    assert raised.value.code == "too-many-clients"
    with pytest.raises(touchd.Refused):
        run_async(touchd.AsyncClient.connect(path, timeout=2))


def test_garbage_after_the_hello_is_a_protocol_error_and_ends_the_connection(peer: Callable[[Script], str]) -> None:
    path = peer(say(HELLO + b'{"type":"down","finger":1,"time_us":1,"x":0,"y":0}\nthis is not json\n'))
    client = touchd.Client(path, timeout=2)
    assert isinstance(client.next_event(timeout=2), touchd.Touch)
    with pytest.raises(touchd.ProtocolError, match="unreadable line"):
        client.next_event(timeout=2)
    assert not client.connected

    async def asynchronous() -> None:
        client = await touchd.AsyncClient.connect(path, timeout=2)
        assert isinstance(await client.next_event(timeout=2), touchd.Touch)
        with pytest.raises(touchd.ProtocolError, match="unreadable line"):
            await client.next_event(timeout=2)
        with pytest.raises(touchd.ConnectionLost, match="cannot read: unreadable line"):
            await client.next_event(timeout=2)
        await client.close()

    run_async(asynchronous())


def test_an_endless_line_is_refused_at_the_limit(peer: Callable[[Script], str]) -> None:
    def flood(connection: socket.socket) -> None:
        connection.sendall(HELLO)
        try:
            for _ in range(100):
                connection.sendall(b"x" * 65536)
        except OSError:
            pass

    path = peer(flood)
    client = touchd.Client(path, timeout=2, max_line_bytes=1 << 20)
    with pytest.raises(touchd.ProtocolError, match="more than 1048576 bytes"):
        client.next_event(timeout=5)


def test_a_missing_socket_and_a_path_that_is_no_socket(tmp_path: Path) -> None:
    with pytest.raises(touchd.ConnectFailed, match="No such file"):
        touchd.Client(str(tmp_path / "absent.sock"))
    (tmp_path / "file").write_text("")
    with pytest.raises(touchd.ConnectFailed) as raised:
        touchd.Client(str(tmp_path / "file"), reconnect=touchd.Backoff(initial=0.01, attempts=5))
    assert (raised.value.errno, raised.value.attempts) == (errno.ECONNREFUSED, 5)  # Linux refuses; retried
    with pytest.raises(touchd.ConnectFailed):
        touchd.Client("/" + "x" * 200)  # longer than a socket path can be
