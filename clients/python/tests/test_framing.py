"""LineFramer and encode_request: hand-written bytes, split every way."""

import json

import pytest

from touchd.errors import ProtocolError
from touchd.protocol import LineFramer, encode_request

STREAM = (
    b'{"type":"frame","device":"replay","time_us":5000000}\n'
    b'{"type":"reply","id":1,"ok":true,"pong":true}\n'
    b'{"type":"device-removed","device":"event5"}\n'
)
LINES = STREAM.rstrip(b"\n").split(b"\n")


def test_whole_stream_in_one_chunk() -> None:
    assert LineFramer().feed(STREAM) == LINES


@pytest.mark.parametrize("cut", range(len(STREAM) + 1))
def test_split_at_every_byte(cut: int) -> None:
    framer = LineFramer()
    assert framer.feed(STREAM[:cut]) + framer.feed(STREAM[cut:]) == LINES
    assert framer.buffered == 0


def test_byte_by_byte() -> None:
    framer = LineFramer()
    lines = [line for byte in STREAM for line in framer.feed(bytes([byte]))]
    assert lines == LINES


def test_unfinished_line_waits() -> None:
    framer = LineFramer()
    assert framer.feed(b'{"type":"fr') == []
    assert framer.buffered == 11
    assert framer.feed(b'ame"}\n{') == [b'{"type":"frame"}']
    assert framer.buffered == 1


def test_empty_lines_are_lines() -> None:
    # The session rejects them (not JSON); the framer must not merge or drop them.
    assert LineFramer().feed(b"\n\n") == [b"", b""]


def test_line_at_the_limit_passes_and_one_byte_more_fails() -> None:
    assert LineFramer(max_line_bytes=10).feed(b"0123456789\n") == [b"0123456789"]
    with pytest.raises(ProtocolError, match="11 bytes, more than 10"):
        LineFramer(max_line_bytes=10).feed(b"01234567890\n")


def test_endless_line_fails_before_its_newline() -> None:
    framer = LineFramer(max_line_bytes=1000)
    framer.feed(b"x" * 600)
    with pytest.raises(ProtocolError, match="more than 1000 bytes"):
        framer.feed(b"x" * 600)


def test_request_line_is_compact_json_with_op_and_id_first() -> None:
    line = encode_request("update-region", 7, {"region": "play", "set": {"hidden": True, "frame": None}})
    assert line == b'{"op":"update-region","id":7,"region":"play","set":{"hidden":true,"frame":null}}\n'


def test_request_line_is_ascii_and_has_one_newline() -> None:
    line = encode_request("add-region", 1, {"region": {"id": "caf\u00e9\nbar\u2028"}})
    assert line.count(b"\n") == 1 and line.endswith(b"\n")
    assert line.isascii()
    assert json.loads(line)["region"]["id"] == "caf\u00e9\nbar\u2028"


def test_large_ids_are_exact() -> None:
    assert json.loads(encode_request("ping", 9007199254740993))["id"] == 9007199254740993


@pytest.mark.parametrize("key", ["op", "id"])
def test_fields_cannot_override_op_or_id(key: str) -> None:
    with pytest.raises(ValueError, match=key):
        encode_request("ping", 1, {key: 2})


def test_nan_is_not_json() -> None:
    with pytest.raises(ValueError):
        encode_request("add-region", 1, {"region": {"id": "a", "frame": [float("nan"), 0, 1, 1]}})
