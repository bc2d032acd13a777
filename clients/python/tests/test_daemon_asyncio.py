"""The asyncio client against the real daemon: the same recording, concurrent requests among streaming events,
scene edits and errors, in-flight requests on a daemon's death, reconnect after a restart."""

from __future__ import annotations

import asyncio
import signal
import time
from pathlib import Path

import pytest

import touchd
from conftest import DaemonFactory
from recording import ABS_MT_POSITION_X, Recording
from test_daemon_client import FAST_RETRY, SCENE, check_stream, expected_region, replay, touchd_start


async def collect(client: touchd.AsyncClient, fingers: int) -> list[touchd.Touch]:
    touches: list[touchd.Touch] = []
    ended = 0
    while ended < fingers:
        event = await client.next_event(timeout=10)
        assert isinstance(event, touchd.Touch), event
        touches.append(event)
        ended += event.phase in ("up", "cancel")
    return touches


def test_recording_with_concurrent_requests_among_the_events(
    start_daemon: DaemonFactory, n4_events: Path, n4: Recording
) -> None:
    daemon = start_daemon(replay(n4_events))

    async def main() -> None:
        async with await touchd.AsyncClient.connect(str(daemon.socket)) as client:
            assert client.hello.devices[0].slots == n4.slots
            assert await client.set_scene(SCENE) == 2
            await client.subscribe(["touch"])
            streaming = asyncio.create_task(collect(client, len(n4.starts)))
            # 200 requests at once while the events stream: each reply reaches its own request.
            pings = [client.request("ping") for _ in range(200)]
            scenes = [client.get_scene() for _ in range(20)]
            replies = await asyncio.gather(*pings)
            assert all(reply.raw["pong"] is True for reply in replies)
            assert len({reply.id for reply in replies}) == 200
            assert all(scene["size"] == [1000, 500] for scene in await asyncio.gather(*scenes))
            touches = await streaming
            check_stream(touches, n4)
            for touch in touches:
                if touch.phase == "down":
                    start = touchd_start(touch)
                    assert touch.x == pytest.approx(n4.scaled(ABS_MT_POSITION_X, start.raw_x, 1000), abs=0.006)
                    assert touch.region == expected_region(start, n4)
            # Nothing more: the async iterator ends after a second without events.
            assert [event async for event in client.events(idle_timeout=0.5)] == []

    asyncio.run(main())


def test_scene_edits_and_error_classes(start_daemon: DaemonFactory) -> None:
    daemon = start_daemon([])

    async def main() -> None:
        async with await touchd.AsyncClient.connect(str(daemon.socket)) as client:
            await client.subscribe(["scene"])
            assert await client.add_region({"id": "a", "frame": [0, 0, 10, 10]}) == 2
            assert await client.update_region("a", {"frame": [5, 5, 10, 10]}) == 3
            assert [r["frame"] for r in (await client.get_scene())["regions"]] == [[5, 5, 10, 10]]
            with pytest.raises(touchd.NotFound, match="no region 'b'"):
                await client.update_region("b", {"hidden": True})
            with pytest.raises(touchd.InvalidScene, match="duplicate id 'a'"):
                await client.add_region({"id": "a", "frame": [0, 0, 1, 1]})
            with pytest.raises(touchd.BadRequest):
                await client.request("ping", {"extra": 1})
            assert await client.remove_region("a") == 4
            assert (await client.get_scene())["regions"] == []
            versions = []
            async for event in client.events(idle_timeout=0.5):
                assert isinstance(event, touchd.SceneChanged)
                versions.append(event.scene.version)
            assert versions == [2, 3, 4]

    asyncio.run(main())


def test_requests_in_flight_when_the_daemon_dies_each_fail_with_their_own_op(start_daemon: DaemonFactory) -> None:
    daemon = start_daemon([])
    socket_path = daemon.socket

    async def main() -> None:
        client = await touchd.AsyncClient.connect(str(socket_path), reconnect=FAST_RETRY)
        await client.ping()
        daemon.signal(signal.SIGSTOP)
        asyncio.get_running_loop().call_later(0.3, daemon.kill)
        results = await asyncio.gather(
            client.add_region({"id": "x", "frame": [0, 0, 1, 1]}), client.get_scene(), return_exceptions=True
        )
        assert all(isinstance(result, touchd.ConnectionLost) for result in results), results
        assert [(r.op, r.request_id) for r in results if isinstance(r, touchd.ConnectionLost)] == [
            ("add-region", 2),
            ("get-scene", 3),
        ]
        start_daemon([], socket=socket_path)
        assert (await client.get_scene())["regions"] == []  # reconnected; the add was not resent
        await client.close()

    asyncio.run(main())


def test_timeout_and_cancellation_abandon_the_request(start_daemon: DaemonFactory) -> None:
    daemon = start_daemon([])

    async def main() -> None:
        async with await touchd.AsyncClient.connect(str(daemon.socket)) as client:
            daemon.signal(signal.SIGSTOP)
            try:
                began = time.monotonic()
                with pytest.raises(touchd.TouchdTimeout):
                    await client.request("get-scene", timeout=0.3)
                assert time.monotonic() - began < 3
                cancelled = asyncio.create_task(client.request("devices"))
                await asyncio.sleep(0.1)
                cancelled.cancel()
                with pytest.raises(asyncio.CancelledError):
                    await cancelled
            finally:
                daemon.signal(signal.SIGCONT)
            # Both late replies are dropped; this ping gets its own.
            reply = await client.request("ping")
            assert reply.raw.get("pong") is True

    asyncio.run(main())


def test_reconnect_after_restart_resubscribes(start_daemon: DaemonFactory, n4_events: Path, n4: Recording) -> None:
    first = start_daemon(replay(n4_events, "--loop"))
    socket_path = first.socket

    async def main() -> None:
        async with await touchd.AsyncClient.connect(str(socket_path), reconnect=FAST_RETRY) as client:
            await client.subscribe(["touch"])
            for _ in range(50):
                assert isinstance(await client.next_event(timeout=10), touchd.Touch)
            await asyncio.to_thread(first.stop)
            asyncio.get_running_loop().call_later(0.3, lambda: start_daemon(replay(n4_events), socket=socket_path))
            event = await client.next_event(timeout=10)
            while not isinstance(event, touchd.Reconnected):
                event = await client.next_event(timeout=10)
            assert event.attempts >= 2
            check_stream(await collect(client, len(n4.starts)), n4)

    asyncio.run(main())


def test_without_reconnect_the_event_stream_raises_the_loss(start_daemon: DaemonFactory) -> None:
    daemon = start_daemon([])

    async def main() -> None:
        client = await touchd.AsyncClient.connect(str(daemon.socket))
        await client.subscribe()
        await asyncio.to_thread(daemon.stop)
        with pytest.raises(touchd.ConnectionLost) as lost:
            await client.next_event(timeout=5)
        assert lost.value.goodbye is not None and lost.value.goodbye.code == "shutdown"
        with pytest.raises(touchd.ConnectionLost):
            await client.next_event(timeout=5)
        with pytest.raises(touchd.ConnectionLost):
            await client.ping()
        await client.close()

    asyncio.run(main())


def test_a_full_event_queue_pauses_reading_and_loses_nothing(
    start_daemon: DaemonFactory, n4_events: Path, n4: Recording
) -> None:
    """With room for 5 events and a program that does not read for a while, the client stops reading the socket
    (touchd holds the rest, well under its 1 MiB queue) and every event still arrives, in order."""
    daemon = start_daemon(replay(n4_events))

    async def main() -> None:
        async with await touchd.AsyncClient.connect(str(daemon.socket), max_queued_events=5) as client:
            await client.subscribe(["touch"])
            await asyncio.sleep(1.5)  # the whole replay (0.8 s at 10x) is sent meanwhile
            # Reading stopped once 5 were queued; the read under way still added its lines (64 KiB at most, and a
            # touch line is over 100 bytes), far fewer than the 1413 that were sent.
            assert 5 <= client._events.qsize() < 5 + 65536 // 100
            touches = await collect(client, len(n4.starts))
            check_stream(touches, n4)
            assert len(touches) == 12 + 12 + 1389  # not coalesced: every move is there

    asyncio.run(main())
