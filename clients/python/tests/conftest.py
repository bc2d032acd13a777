from __future__ import annotations

import os
import socket
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from recording import Recording, read_recording
from support import Daemon, Script, recordings_directory, scratch_directory, touchd_binary

N4 = Path("xorg-integration-tests/touchscreens/n4")  # Nexus 4 touchscreen: .events and .desc


@pytest.fixture(scope="session")
def touchd() -> Path:
    """The daemon's binary. Missing is a failure, not a skip: scripts/python-test.sh runs after `swift build`."""
    binary = touchd_binary()
    if not os.access(binary, os.X_OK):
        pytest.fail(f"{binary} is not built: run `swift build --product touchd` or set TOUCHD_BIN")
    return binary


@pytest.fixture(scope="session")
def recordings() -> Path:
    directory = recordings_directory()
    if not directory.is_dir():
        # CI always has the shared recordings: there a skip would hide every test against the real daemon.
        if os.environ.get("CI"):
            pytest.fail(f"{directory} is absent, and CI must have it")
        pytest.skip(f"{directory} is absent (a user's checkout): real-recording tests skipped")
    return directory


@pytest.fixture(scope="session")
def n4_events(recordings: Path) -> Path:
    return recordings / N4.with_suffix(".events")


@pytest.fixture(scope="session")
def n4(recordings: Path) -> Recording:
    return read_recording(recordings / N4.with_suffix(".events"), recordings / N4.with_suffix(".desc"))


DaemonFactory = Callable[..., Daemon]


@pytest.fixture
def start_daemon(touchd: Path) -> Iterator[DaemonFactory]:
    """Starts `touchd run` with the given arguments (and config, socket); every daemon started is stopped after
    the test, whatever happened."""
    started: list[Daemon] = []

    def start(arguments: list[str], config: dict[str, Any] | None = None, socket: Path | None = None) -> Daemon:
        directory = socket.parent if socket is not None else None
        daemon = Daemon(touchd, arguments, config=config, socket=socket, directory=directory)
        started.append(daemon)
        return daemon

    yield start
    for daemon in started:
        try:
            daemon.stop()
        except Exception:
            daemon.kill()
    for daemon in started:
        daemon.remove_directory()


@pytest.fixture
def peer() -> Iterator[Callable[[Script], str]]:
    """Listens on a fresh Unix socket and returns its path; each connection is handed to the script, one after the
    other, in a thread."""
    directory = scratch_directory()
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(directory / "peer.sock"))
    listener.listen(8)
    threads: list[threading.Thread] = []

    def serve(script: Script) -> str:
        def run() -> None:
            while True:
                try:
                    connection, _ = listener.accept()
                except OSError:
                    return
                with connection:
                    script(connection)

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        threads.append(thread)
        return str(directory / "peer.sock")

    yield serve
    listener.shutdown(socket.SHUT_RDWR)
    listener.close()
    for thread in threads:
        thread.join(5)
    for path in directory.iterdir():
        path.unlink()
    directory.rmdir()
