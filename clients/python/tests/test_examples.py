"""The examples in clients/python/examples run against the real daemon and print what the recording holds."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

from conftest import DaemonFactory
from recording import Recording
from test_daemon_client import SCENE, expected_region, replay

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def run(script: str, *arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(EXAMPLES / script), *arguments], capture_output=True, text=True, timeout=60, check=False
    )


def test_monitor_prints_every_touch(start_daemon: DaemonFactory, n4_events: Path, n4: Recording) -> None:
    daemon = start_daemon(replay(n4_events))
    result = run("monitor.py", "--socket", str(daemon.socket), "--events", "touch", "--idle", "1.5")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "connected to touchd 0.1.0: 1 device(s)"
    phases = Counter(line.split()[0] for line in lines[1:])
    assert phases["down"] == phases["up"] == len(n4.starts)


def test_region_counts_counts_the_fingers_per_region(
    start_daemon: DaemonFactory, n4_events: Path, n4: Recording, tmp_path: Path
) -> None:
    scene = tmp_path / "scene.json"
    scene.write_text(json.dumps(SCENE))
    daemon = start_daemon(replay(n4_events, "--scene", str(scene)))
    result = run("region_counts.py", "--socket", str(daemon.socket), "--idle", "1.5")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == dict(Counter(expected_region(start, n4) for start in n4.starts))


def test_edit_scene_walks_through_the_edits(start_daemon: DaemonFactory) -> None:
    daemon = start_daemon([])
    result = run("edit_scene.py", "--socket", str(daemon.socket))
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "added banner: scene version 2",
        # get-scene writes the scene as touchd holds it: the gesture in its long form.
        'updated banner (version 3): {"frame": [0, 0, 400, 120], "gestures": [{"type": "tap"}], "hidden": true, '
        '"id": "banner"}',
        "removed banner: scene version 4",
        "as expected, a second removal fails: no region 'banner'",
    ]
