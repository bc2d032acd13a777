"""A peer that accepts, says hello and hangs up at once, on a real Unix socket: every connection succeeds and none
lives. Both clients must back off across such connections (only a connection that stayed up `reset_after`
seconds starts the waits afresh), not reconnect as fast as the socket allows."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Callable

import pytest

import touchd
from support import HELLO, Script, run_async

Peer = Callable[[Script], str]


class Counter:
    """Connections a script was handed, with the moments they were accepted and hung up."""

    def __init__(self) -> None:
        self.accepted: list[float] = []
        self.closed: list[float] = []

    def hello_and_hang_up(self, lives: Callable[[int], float] = lambda _: 0.0) -> Script:
        def script(connection: socket.socket) -> None:
            self.accepted.append(time.monotonic())
            connection.sendall(HELLO)
            time.sleep(lives(len(self.accepted)))
            self.closed.append(time.monotonic())

        return script


# Waits of Backoff(initial=0.02, maximum=0.1, attempts=8): 0.02, 0.04, 0.08, 0.1, 0.1, 0.1, 0.1 (seven, 0.54 s).
BOUNDED = touchd.Backoff(initial=0.02, maximum=0.1, attempts=8)


def test_blocking_next_event_backs_off_and_gives_up_after_the_attempts(peer: Peer) -> None:
    counter = Counter()
    path = peer(counter.hello_and_hang_up())
    client = touchd.Client(path, timeout=2, reconnect=BOUNDED)
    outcome: list[BaseException] = []

    def wait() -> None:
        try:
            client.next_event()  # no timeout: only the attempts running out can end it
        except BaseException as error:
            outcome.append(error)

    began = time.monotonic()
    thread = threading.Thread(target=wait, daemon=True)
    thread.start()
    thread.join(10)
    assert not thread.is_alive(), f"next_event() still waiting after {len(counter.accepted)} connections"
    elapsed = time.monotonic() - began
    assert len(counter.accepted) == 8  # the first connection and seven more, one per wait
    assert isinstance(outcome[0], touchd.ConnectionLost)
    assert "gave up reconnecting after 8 attempts" in str(outcome[0])
    assert elapsed >= 0.54


def test_asyncio_next_event_backs_off_and_gives_up_after_the_attempts(peer: Peer) -> None:
    counter = Counter()
    path = peer(counter.hello_and_hang_up())

    async def run() -> tuple[BaseException | None, float]:
        client = await touchd.AsyncClient.connect(path, timeout=2, reconnect=BOUNDED)
        began = time.monotonic()
        try:
            await asyncio.wait_for(client.next_event(), 10)
        except touchd.ConnectionLost as error:
            return error, time.monotonic() - began
        finally:
            await client.close()
        return None, 0.0

    error, elapsed = run_async(run())
    assert len(counter.accepted) == 8
    assert error is not None and "gave up reconnecting after 8 attempts" in str(error)
    assert elapsed >= 0.54


# Backoff(initial=0.05, maximum=0.4, attempts=None): connections at 0, 0.05, 0.15, 0.35, 0.75, 1.15 … s: five
# within a second; without backoff, thousands.
ENDLESS = touchd.Backoff(initial=0.05, maximum=0.4, attempts=None)


def test_blocking_reconnects_at_the_backoffs_pace_within_a_timeout(peer: Peer) -> None:
    counter = Counter()
    path = peer(counter.hello_and_hang_up())
    client = touchd.Client(path, timeout=2, reconnect=ENDLESS)
    began = time.monotonic()
    with pytest.raises(touchd.TouchdTimeout):
        client.next_event(timeout=1.0)
    assert time.monotonic() - began < 1.5  # the wait for the next attempt ends at the deadline
    assert 3 <= len(counter.accepted) <= 5
    client.close()


def test_asyncio_reconnects_at_the_backoffs_pace_within_a_timeout(peer: Peer) -> None:
    counter = Counter()
    path = peer(counter.hello_and_hang_up())

    async def run() -> float:
        client = await touchd.AsyncClient.connect(path, timeout=2, reconnect=ENDLESS)
        began = time.monotonic()
        with pytest.raises(touchd.TouchdTimeout):
            await client.next_event(timeout=1.0)
        await client.close()
        return time.monotonic() - began

    assert run_async(run()) < 1.5
    assert 3 <= len(counter.accepted) <= 5


@pytest.mark.parametrize(("first_lives", "waits_at_least", "waits_at_most"), [(0.4, 0.0, 0.25), (0.05, 0.5, 5.0)])
def test_only_a_connection_that_lived_reconnects_at_once(
    peer: Peer, first_lives: float, waits_at_least: float, waits_at_most: float
) -> None:
    """reset_after=0.2: a first connection up for 0.4 s lived (the next attempt at once); one up for 0.05 s did not
    (the next attempt after `initial`, 0.5 s)."""
    counter = Counter()
    path = peer(counter.hello_and_hang_up(lambda n: first_lives if n == 1 else 2.0))
    policy = touchd.Backoff(initial=0.5, maximum=1.0, attempts=None, reset_after=0.2)
    client = touchd.Client(path, timeout=2, reconnect=policy)
    with pytest.raises(touchd.TouchdTimeout):
        client.next_event(timeout=first_lives + 1.0)
    assert len(counter.accepted) == 2
    gap = counter.accepted[1] - counter.closed[0]
    assert waits_at_least <= gap <= waits_at_most
    client.close()


def test_reset_after_must_be_a_positive_number_of_seconds() -> None:
    for nonsense in (0.0, -1.0, float("inf"), float("nan")):
        with pytest.raises(ValueError, match="reset_after"):
            touchd.Backoff(reset_after=nonsense)
