"""`add_region(..., transient=True)` against the real daemon: a script that dies (SIGKILL, no goodbye) leaves no
region behind, so its rerun adds the same id again; without `transient`, the rerun finds the region there
(`duplicate id`, docs/protocol.md)."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time

import pytest

import touchd
from conftest import DaemonFactory

# The "crashed script": adds its region, says it did, and is killed by its own SIGKILL before it can close anything.
SCRIPT = """
import os, signal, sys, touchd
client = touchd.Client(sys.argv[1])
client.add_region({"id": "toast", "frame": [0, 0, 10, 10]}, transient=sys.argv[2] == "transient")
print("added", flush=True)
os.kill(os.getpid(), signal.SIGKILL)
"""


def run_and_die(socket: str, mode: str) -> None:
    result = subprocess.run([sys.executable, "-c", SCRIPT, socket, mode], capture_output=True, timeout=30)
    assert result.stdout == b"added\n", result.stderr
    assert result.returncode == -9


def region_ids(client: touchd.Client) -> list[str]:
    return [region["id"] for region in client.get_scene()["regions"]]


def test_a_killed_scripts_transient_region_goes_with_it(start_daemon: DaemonFactory) -> None:
    daemon = start_daemon([])
    run_and_die(str(daemon.socket), "transient")
    with touchd.Client(str(daemon.socket)) as client:
        deadline = time.monotonic() + 5  # touchd removes it between inputs, after it sees the connection end
        while "toast" in region_ids(client) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert region_ids(client) == []
    run_and_die(str(daemon.socket), "transient")  # the rerun: no duplicate id


def test_without_transient_the_rerun_finds_the_region_left_over(start_daemon: DaemonFactory) -> None:
    daemon = start_daemon([])
    run_and_die(str(daemon.socket), "kept")
    with touchd.Client(str(daemon.socket)) as client:
        assert region_ids(client) == ["toast"]
        with pytest.raises(touchd.InvalidScene, match="duplicate id 'toast'"):
            client.add_region({"id": "toast", "frame": [0, 0, 10, 10]})


def test_the_asyncio_clients_transient_region_goes_when_it_closes(start_daemon: DaemonFactory) -> None:
    daemon = start_daemon([])

    async def main() -> None:
        async with await touchd.AsyncClient.connect(str(daemon.socket)) as client:
            assert await client.add_region({"id": "toast", "frame": [0, 0, 10, 10]}, transient=True) == 2
            assert [r["id"] for r in (await client.get_scene())["regions"]] == ["toast"]

    asyncio.run(main())
    with touchd.Client(str(daemon.socket)) as client:
        deadline = time.monotonic() + 5
        while region_ids(client) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert region_ids(client) == []
