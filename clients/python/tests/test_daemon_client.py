"""The blocking client against the real daemon replaying the Nexus 4 recording (12 touches, at most 4 at once).

Expected answers come from the recording's own text (tests/recording.py), not from touchd.
"""

from __future__ import annotations

import errno
import json
import os
import signal
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import touchd
from conftest import DaemonFactory
from recording import ABS_MT_POSITION_X, ABS_MT_POSITION_Y, Recording, Start

# A scene that splits the screen in two; the recording is mapped onto its 1000 x 500.
SCENE: dict[str, Any] = {
    "size": [1000, 500],
    "regions": [{"id": "left", "frame": [0, 0, 500, 500]}, {"id": "right", "frame": [500, 0, 500, 500]}],
}
FAST_RETRY = touchd.Backoff(initial=0.02, maximum=0.2, attempts=100)


def replay(events: Path, *extra: str, waits: int = 1) -> list[str]:
    """Play the recording at 10× once `waits` clients have subscribed, without the jitter filter: every expected
    count and position is tallied from the file's own events (recording.py)."""
    return ["--replay", str(events), "--speed", "10", "--replay-waits", str(waits), "--filter", "off", *extra]


def collect_touches(client: touchd.Client, fingers: int) -> tuple[list[touchd.Touch], list[touchd.Frame]]:
    """Events until `fingers` touches have ended."""
    touches: list[touchd.Touch] = []
    frames: list[touchd.Frame] = []
    ended = 0
    while ended < fingers:
        event = client.next_event(timeout=10)
        if isinstance(event, touchd.Touch):
            touches.append(event)
            ended += event.phase in ("up", "cancel")
        elif isinstance(event, touchd.Frame):
            frames.append(event)
    return touches, frames


def check_stream(touches: list[touchd.Touch], n4: Recording) -> None:
    """The touches are the recording's: its fingers, each begun where the file says, and a consistent life."""
    downs = [t for t in touches if t.phase == "down"]
    assert len(downs) == len(n4.starts) == 12
    assert Counter(t.phase for t in touches)["up"] == len(n4.starts) - n4.down_at_end
    assert sorted((t.slot, t.raw_x, t.raw_y) for t in downs) == sorted((s.slot, s.raw_x, s.raw_y) for s in n4.starts)
    assert (downs[0].slot, downs[0].raw_x, downs[0].raw_y) == (0, 890, 576)
    live: set[int] = set()
    most = 0
    for touch in touches:
        if touch.phase == "down":
            assert touch.finger not in live
            live.add(touch.finger)
        else:
            assert touch.finger in live
            if touch.phase in ("up", "cancel"):
                live.remove(touch.finger)
        most = max(most, len(live))
    assert most == n4.max_simultaneous == 4
    assert not live


def expected_region(start: Start, n4: Recording) -> str:
    x = n4.scaled(ABS_MT_POSITION_X, start.raw_x, 1000)
    assert abs(x - 500) > 1, "a touch on the boundary would make the expectation ambiguous"
    return "left" if x < 500 else "right"


def test_hello_devices_and_ping(start_daemon: DaemonFactory, n4_events: Path, n4: Recording) -> None:
    daemon = start_daemon(replay(n4_events))
    with touchd.Client(str(daemon.socket)) as client:
        device = touchd.DeviceInfo("replay0", "touch_dev", str(n4_events), n4.slots, "slotted")
        assert client.hello.protocol == 1
        assert client.hello.server.startswith("touchd ")
        assert client.hello.devices == (device,)
        assert client.hello.permissions == touchd.Permissions(subscribe=True, scene=os.geteuid() == 0)
        assert client.devices() == [device]
        client.ping()


def test_recording_arrives_with_its_fingers_positions_and_regions(
    start_daemon: DaemonFactory, n4_events: Path, n4: Recording
) -> None:
    # No scene file: the scene comes over the socket before anything plays, so dispatch proves the edit took effect.
    daemon = start_daemon(replay(n4_events))
    with touchd.Client(str(daemon.socket)) as client:
        assert client.set_scene(SCENE) == 2
        client.subscribe(["touch", "frame"])
        touches, frames = collect_touches(client, len(n4.starts))
        check_stream(touches, n4)
        last = client.next_event(timeout=5)  # the frame that closes the last up
        assert isinstance(last, touchd.Frame)
        assert len(frames) + 1 == n4.frames_with_touch_events == 577
        region_of: dict[int, str | None] = {}
        for touch in touches:
            if touch.phase == "down":
                start = touchd_start(touch)
                assert touch.x == pytest.approx(n4.scaled(ABS_MT_POSITION_X, start.raw_x, 1000), abs=0.006)
                assert touch.y == pytest.approx(n4.scaled(ABS_MT_POSITION_Y, start.raw_y, 500), abs=0.006)
                assert touch.region == expected_region(start, n4)
                region_of[touch.finger] = touch.region
            # Captured: every event of a finger goes to the region of its down, in that region's coordinates.
            assert touch.region == region_of[touch.finger]
            offset = 500 if touch.region == "right" else 0
            assert touch.local_x == pytest.approx(touch.x - offset, abs=0.011)
        assert Counter(region_of.values()) == Counter(expected_region(s, n4) for s in n4.starts)
        # The replay does not loop: nothing more comes.
        with pytest.raises(touchd.TouchdTimeout):
            client.next_event(timeout=0.5)


def test_selected_fields_cut_each_touch_line_to_its_core_and_the_chosen_keys(
    start_daemon: DaemonFactory, n4_events: Path, n4: Recording
) -> None:
    daemon = start_daemon(replay(n4_events, waits=2))
    with touchd.Client(str(daemon.socket)) as whole, touchd.Client(str(daemon.socket)) as chosen:
        assert whole.set_scene(SCENE) == 2
        with pytest.raises(touchd.BadRequest) as unknown:
            chosen.subscribe(["touch"], fields=["region", "colour"])
        assert unknown.value.message.startswith("fields: unknown field 'colour'; expected any of ")
        chosen.subscribe(["touch"], fields=["slot", "raw_x", "raw_y", "region"])
        whole.subscribe(["touch"])
        cut, _ = collect_touches(chosen, len(n4.starts))
        full, _ = collect_touches(whole, len(n4.starts))
        # The selected keys are enough to find the recording's own fingers in the stream.
        check_stream(cut, n4)
        assert len(cut) == len(full)
        for short, line in zip(cut, full):
            assert set(short.raw) == {"type", "finger", "time_us", "x", "y", "slot", "raw_x", "raw_y", "region"}
            assert short.raw == {key: value for key, value in line.raw.items() if key in short.raw}
            assert (short.device, short.local_x, short.since_down_us) == ("", None, None)


def touchd_start(touch: touchd.Touch) -> Start:
    assert touch.slot is not None and touch.raw_x is not None and touch.raw_y is not None
    return Start(touch.slot, touch.raw_x, touch.raw_y)


def test_scene_edits_are_seen_in_get_scene_and_by_subscribers(start_daemon: DaemonFactory, tmp_path: Path) -> None:
    scene_file = tmp_path / "scene.json"
    scene_file.write_text(json.dumps(SCENE))
    daemon = start_daemon(["--scene", str(scene_file)])
    with touchd.Client(str(daemon.socket)) as watcher, touchd.Client(str(daemon.socket)) as editor:
        watcher.subscribe(["scene"])
        assert editor.add_region({"id": "top", "frame": [0, 0, 1000, 100], "z": 1}) == 2
        assert region(editor.get_scene(), "top")["frame"] == [0, 0, 1000, 100]
        assert editor.add_region({"id": "knob", "frame": [10, 10, 20, 20]}, parent="top") == 3
        assert [child["id"] for child in region(editor.get_scene(), "top")["children"]] == ["knob"]
        assert editor.update_region("top", {"hidden": True, "frame": [0, 0, 1000, 50]}) == 4
        top = region(editor.get_scene(), "top")
        assert (top["hidden"], top["frame"]) == (True, [0, 0, 1000, 50])
        assert editor.update_region("top", {"hidden": None}) == 5  # null: back to the default
        assert region(editor.get_scene(), "top").get("hidden", False) is False
        assert editor.remove_region("top") == 6  # and its child
        assert [r["id"] for r in editor.get_scene()["regions"]] == ["left", "right"]
        assert editor.set_scene({"size": [800, 600], "regions": [{"id": "only", "frame": [0, 0, 800, 600]}]}) == 7
        scene = editor.get_scene()
        assert scene["size"] == [800, 600] and [r["id"] for r in scene["regions"]] == ["only"]

        changes = [watcher.next_event(timeout=5) for _ in range(6)]
        assert all(isinstance(c, touchd.SceneChanged) and c.source.startswith("client ") for c in changes)
        summaries = [c.scene for c in changes if isinstance(c, touchd.SceneChanged)]
        assert [s.version for s in summaries] == [2, 3, 4, 5, 6, 7]
        assert [s.regions for s in summaries] == [3, 4, 4, 4, 2, 1]
        assert (summaries[-1].width, summaries[-1].height) == (800, 600)


def region(scene: dict[str, Any], region_id: str) -> dict[str, Any]:
    found: list[dict[str, Any]] = [r for r in scene["regions"] if r["id"] == region_id]
    assert len(found) == 1, f"{region_id} in {scene}"
    return found[0]


def test_error_replies_raise_their_classes_and_the_connection_stays(
    start_daemon: DaemonFactory, tmp_path: Path
) -> None:
    daemon = start_daemon([])
    with touchd.Client(str(daemon.socket)) as client:
        with pytest.raises(touchd.NotFound) as not_found:
            client.remove_region("ghost")
        assert (not_found.value.message, not_found.value.op) == ("no region 'ghost'", "remove-region")
        with pytest.raises(touchd.InvalidScene) as invalid:
            client.set_scene({"size": [100, 100], "regions": [{"id": "a", "frame": [0, 0, -1, 1]}]})
        assert invalid.value.message == "scene.regions[0].frame: width and height must not be negative"
        with pytest.raises(touchd.UnknownOp):
            client.request("teleport")
        with pytest.raises(touchd.BadRequest):
            client.request("subscribe", {"colour": "blue"})
        with pytest.raises(touchd.LineTooLong):
            client.request("ping", {"padding": "x" * (2 * 1024 * 1024)})
        client.ping()  # every error above left the connection working
        assert client.get_scene()["regions"] == []


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to become nobody")
def test_unprivileged_peer_gets_permission_denied(start_daemon: DaemonFactory) -> None:
    """A client running as nobody (uid/gid 65534, no groups) may subscribe but not change the scene."""
    daemon = start_daemon([], config={"socket": {"mode": "0666"}, "clients": {"sceneGroups": ["root"]}})
    read_end, write_end = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - runs in the child
        status = 1
        try:
            os.close(read_end)
            os.setgroups([])
            os.setgid(65534)
            os.setuid(65534)
            with touchd.Client(str(daemon.socket), timeout=5) as client:
                outcome = [str(client.hello.permissions.scene)]
                try:
                    client.add_region({"id": "mine", "frame": [0, 0, 1, 1]})
                    outcome.append("allowed")
                except touchd.RequestError as error:
                    outcome += [type(error).__name__, error.message]
            os.write(write_end, "\n".join(outcome).encode())
            status = 0
        finally:
            os._exit(status)
    os.close(write_end)
    _, status = os.waitpid(child, 0)
    with os.fdopen(read_end) as pipe:
        outcome = pipe.read().split("\n")
    assert os.waitstatus_to_exitcode(status) == 0
    assert outcome[:2] == ["False", "PermissionDenied"]
    assert outcome[2].startswith("uid 65534 may not change the scene")
    with touchd.Client(str(daemon.socket)) as root:  # root may, so the scene is untouched by the refusal
        assert root.get_scene()["regions"] == []


def test_timeout_leaves_the_connection_usable_and_drops_the_late_reply(start_daemon: DaemonFactory) -> None:
    daemon = start_daemon([])
    with touchd.Client(str(daemon.socket), timeout=5) as client:
        daemon.signal(signal.SIGSTOP)
        try:
            began = time.monotonic()
            with pytest.raises(touchd.TouchdTimeout) as timed_out:
                client.request("get-scene", timeout=0.3)
            assert 0.3 <= time.monotonic() - began < 3
            assert timed_out.value.operation == "get-scene"
        finally:
            daemon.signal(signal.SIGCONT)
        # The late get-scene reply arrives first now; the ping must get its own reply, not that one.
        reply = client.request("ping")
        assert reply.raw.get("pong") is True and "scene" not in reply.raw
        assert client.get_scene()["regions"] == []


def test_a_stopped_daemon_gives_a_hello_timeout(start_daemon: DaemonFactory) -> None:
    daemon = start_daemon([])
    daemon.signal(signal.SIGSTOP)
    try:
        began = time.monotonic()
        with pytest.raises(touchd.TouchdTimeout) as timed_out:
            touchd.Client(str(daemon.socket), timeout=0.3)
        assert timed_out.value.operation == "hello"
        assert time.monotonic() - began < 3
    finally:
        daemon.signal(signal.SIGCONT)


def test_request_in_flight_when_the_daemon_dies_is_lost_not_resent(start_daemon: DaemonFactory) -> None:
    daemon = start_daemon([])
    socket_path = daemon.socket
    with touchd.Client(str(socket_path), reconnect=FAST_RETRY) as client:
        client.ping()
        daemon.signal(signal.SIGSTOP)  # the request is sent but never read …
        threading.Timer(0.3, daemon.kill).start()  # … and the daemon dies with it
        with pytest.raises(touchd.ConnectionLost) as lost:
            client.add_region({"id": "late", "frame": [0, 0, 1, 1]})
        assert (lost.value.op, lost.value.request_id) == ("add-region", 2)
        assert lost.value.goodbye is None  # killed: no goodbye
        assert not client.connected

        second = start_daemon([], socket=socket_path)  # reclaims the stale socket file
        # The next call reconnects; the lost request was not sent again.
        assert client.get_scene()["regions"] == []
        assert client.hello.scene.version == 1
        assert "client 1 connected" in second.log


def test_without_reconnect_the_loss_is_raised_with_touchds_goodbye(start_daemon: DaemonFactory) -> None:
    daemon = start_daemon([])
    client = touchd.Client(str(daemon.socket))
    client.subscribe()
    daemon.stop()
    with pytest.raises(touchd.ConnectionLost) as lost:
        client.next_event(timeout=5)
    assert lost.value.goodbye is not None and lost.value.goodbye.code == "shutdown"
    with pytest.raises(touchd.ConnectionLost):
        client.ping()
    client.close()
    with pytest.raises(touchd.ConnectionLost, match="closed"):
        client.ping()


def test_reconnect_after_restart_resubscribes(start_daemon: DaemonFactory, n4_events: Path, n4: Recording) -> None:
    first = start_daemon(replay(n4_events, "--loop"))
    socket_path = first.socket
    with touchd.Client(str(socket_path), reconnect=FAST_RETRY) as client:
        client.subscribe(["touch"])
        before: list[touchd.Touch] = []
        while len(before) < 50:
            event = client.next_event(timeout=10)
            assert isinstance(event, touchd.Touch)
            before.append(event)
        first.stop()  # touchd cancels live fingers, says goodbye, removes the socket
        threading.Timer(0.3, lambda: start_daemon(replay(n4_events), socket=socket_path)).start()

        # What was sent before the stop comes first; every finger begun there is ended there (up or cancel).
        while not isinstance(event := client.next_event(timeout=10), touchd.Reconnected):
            assert isinstance(event, touchd.Touch)
            before.append(event)
        begun = {t.finger for t in before if t.phase == "down"}
        live = begun - {t.finger for t in before if t.phase in ("up", "cancel")}
        assert not live, "touchd ends every live finger before it stops"
        assert event.attempts >= 2  # the socket was gone for 0.3 s
        assert event.hello.devices[0].device == "replay0"

        # The subscription was renewed: the second daemon (waiting for one subscriber) plays the whole recording.
        touches, _ = collect_touches(client, len(n4.starts))
        check_stream(touches, n4)


def test_connect_retries_until_the_socket_appears(start_daemon: DaemonFactory, tmp_path: Path) -> None:
    from support import scratch_directory

    directory = scratch_directory()
    socket_path = directory / "touchd.sock"
    began = time.monotonic()
    with pytest.raises(touchd.ConnectFailed) as failed:
        touchd.Client(str(socket_path), reconnect=touchd.Backoff(initial=0.05, maximum=0.1, attempts=3))
    assert (failed.value.errno, failed.value.attempts) == (errno.ENOENT, 3)
    assert 0.15 <= time.monotonic() - began < 3  # waited 0.05 + 0.1
    with pytest.raises(touchd.ConnectFailed):
        touchd.Client(str(socket_path))  # no retry by default

    threading.Timer(0.3, lambda: start_daemon([], socket=socket_path)).start()
    with touchd.Client(str(socket_path), reconnect=FAST_RETRY) as client:
        client.ping()
