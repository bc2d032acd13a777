"""examples/touchd_client.py (the single-file client) against a scripted peer that lies: it must refuse what is not
JSON and must not pass a terminal the controls a JSON string may carry raw."""

from __future__ import annotations

import socket
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from support import HELLO, Script

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "touchd_client.py"


def answer_then(lines: bytes) -> Script:
    """Says hello, reads the subscribe request, replies ok to it and sends `lines`, then hangs up."""

    def script(connection: socket.socket) -> None:
        connection.sendall(HELLO)
        connection.recv(1 << 16)
        connection.sendall(b'{"type":"reply","id":1,"ok":true}\n' + lines)

    return script


def run(path: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(EXAMPLE), "--socket", path], capture_output=True, text=True, timeout=30, check=False
    )


def test_nan_in_a_line_ends_the_example_with_a_message(peer: Callable[[Script], str]) -> None:
    result = run(peer(answer_then(b'{"type":"touch","phase":"down","x":NaN}\n')))
    assert result.returncode == 1
    assert "touchd sent a line that is not JSON (NaN is not JSON)" in result.stderr
    assert result.stdout == ""


def test_a_line_that_is_not_an_object_ends_the_example(peer: Callable[[Script], str]) -> None:
    result = run(peer(answer_then(b"[1, 2]\n")))
    assert result.returncode == 1
    assert "not a JSON object" in result.stderr


def test_c1_controls_and_del_reach_stdout_escaped_and_the_line_means_the_same(peer: Callable[[Script], str]) -> None:
    line = '{"type":"region","region":"a\u009b2Jb\u007f"}\n'
    result = run(peer(answer_then(line.encode())))
    assert result.returncode == 0, result.stderr
    assert result.stdout == '{"type":"region","region":"a\\u009b2Jb\\u007f"}\n'
    assert "received 1 lines" in result.stderr
