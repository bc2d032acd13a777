"""Helpers for the tests against the real daemon: where things are, and a `touchd run` in a directory of its own.

Nothing here builds anything: touchd comes from $TOUCHD_BIN (default: the repository's .build/debug/touchd, which
`swift build` makes), the recordings from $TOUCHD_RECORDINGS (default: ../shared/recordings beside the repository,
as for the Swift suites).
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, TypeVar

REPO = Path(__file__).resolve().parents[3]


def touchd_binary() -> Path:
    return Path(os.environ.get("TOUCHD_BIN") or REPO / ".build" / "debug" / "touchd")


def recordings_directory() -> Path:
    return Path(os.environ.get("TOUCHD_RECORDINGS") or REPO.parent / "shared" / "recordings")


def scratch_directory(prefix: str = "touchd-py-") -> Path:
    """A fresh directory under /tmp that other users can traverse (for the unprivileged peer's test)."""
    path = Path(tempfile.mkdtemp(prefix=prefix))
    path.chmod(0o755)
    return path


class Daemon:
    """A real `touchd run` listening on a socket in its own directory; its log goes to a file there."""

    def __init__(
        self,
        binary: Path,
        arguments: list[str],
        config: dict[str, Any] | None = None,
        socket: Path | None = None,
        directory: Path | None = None,
    ) -> None:
        self.directory = directory or scratch_directory()
        self.socket = socket or self.directory / "touchd.sock"
        self.log_path = self.directory / f"daemon-{time.monotonic_ns()}.log"
        command = [str(binary), "run", "--socket", str(self.socket), "--log-level", "debug"]
        if config is not None:
            config_path = self.directory / "touchd.json"
            config_path.write_text(json.dumps(config))
            command += ["--config", str(config_path)]
        with open(self.log_path, "wb") as log:
            self.process = subprocess.Popen(command + arguments, stdout=subprocess.DEVNULL, stderr=log)
        deadline = time.monotonic() + 10
        while "listening on" not in self.log and self.process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        if "listening on" not in self.log:
            self.kill()
            raise RuntimeError(f"touchd did not start listening: {self.log}")

    @property
    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    @property
    def running(self) -> bool:
        return self.process.poll() is None

    def signal(self, number: int) -> None:
        if self.running:
            self.process.send_signal(number)

    def stop(self, timeout: float = 10) -> int:
        """SIGTERM (touchd cancels live fingers, says goodbye, removes its socket) and wait."""
        if self.running:
            self.process.send_signal(signal.SIGCONT)
            self.process.terminate()
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise

    def kill(self) -> None:
        """SIGKILL: no goodbye, the socket file stays behind."""
        if self.running:
            self.process.kill()
        self.process.wait(10)

    def remove_directory(self) -> None:
        shutil.rmtree(self.directory, ignore_errors=True)


# A scripted peer (the `peer` fixture in conftest.py) runs a script on each connection it accepts.

HELLO = (
    b'{"type":"hello","protocol":1,"server":"scripted","devices":[],"scene":{"version":1,"width":1,"height":1,'
    b'"regions":0},"permissions":{"subscribe":true,"scene":false}}\n'
)
Script = Callable[[socket.socket], None]
T = TypeVar("T")


def silent(connection: socket.socket) -> None:
    connection.recv(1)  # until the client gives up


def say(data: bytes) -> Script:
    """Sends `data`, waits for the client to send something or leave, and hangs up a little later."""

    def script(connection: socket.socket) -> None:
        connection.sendall(data)
        connection.recv(1 << 16)
        time.sleep(0.2)

    return script


def run_async(coroutine: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coroutine)
