"""Decoding: the example lines of docs/protocol.md, typed; unknown types and keys; broken lines."""

import pytest

from touchd import (
    DeviceAdded,
    DeviceInfo,
    DeviceRemoved,
    Frame,
    Gesture,
    Goodbye,
    Hello,
    Permissions,
    RegionMoved,
    Reply,
    SceneChanged,
    SceneSummary,
    Touch,
    UnknownEvent,
)
from touchd.errors import ProtocolError
from touchd.messages import decode_line
from touchd.protocol import subscription_fields

# Lines as docs/protocol.md shows them.
HELLO = (
    b'{"type":"hello","protocol":1,"server":"touchd 0.1.0","devices":[{"device":"event5","name":"eGalax Inc.",'
    b'"node":"/dev/input/event5","slots":10,"protocol":"slotted"}],"scene":{"version":1,"width":1280,'
    b'"height":800,"regions":7},"permissions":{"subscribe":true,"scene":false}}'
)
MOVE = (
    b'{"type":"move","device":"replay","finger":4,"slot":0,"time_us":1404000,"region":"knob","x":272.5,'
    b'"y":470.12,"local_x":20,"local_y":23.75,"prev_x":265,"prev_y":469.53,"dx":22.5,"dy":1.37,'
    b'"since_down_us":24000,"taps":1,"raw_x":872,"raw_y":2407,"pressure":60}'
)
DOWN_UNDISPATCHED = (
    b'{"type":"down","device":"replay","finger":1,"slot":0,"time_us":5000000,"x":480,"y":540,"raw_x":1024,'
    b'"raw_y":2048,"pressure":9}'
)
DOUBLE_TAP = (
    b'{"type":"gesture","region":"favourite","gesture":"double-tap","kind":"tap","state":"ended",'
    b'"time_us":710000,"x":1062.5,"y":136.72,"fingers":1,"taps":2}'
)
PINCH = (
    b'{"type":"gesture","region":"photo","gesture":"pinch","kind":"pinch","state":"changed","time_us":2352000,'
    b'"x":937.5,"y":488.28,"fingers":2,"scale":1.467,"rotation":1.14}'
)


def test_hello() -> None:
    hello = decode_line(HELLO)
    assert hello == Hello(
        protocol=1,
        server="touchd 0.1.0",
        devices=(DeviceInfo("event5", "eGalax Inc.", "/dev/input/event5", 10, "slotted"),),
        scene=SceneSummary(version=1, width=1280.0, height=800.0, regions=7),
        permissions=Permissions(subscribe=True, scene=False),
    )


def test_dispatched_move() -> None:
    touch = decode_line(MOVE)
    assert isinstance(touch, Touch)
    assert (touch.phase, touch.device, touch.finger, touch.slot, touch.time_us) == ("move", "replay", 4, 0, 1404000)
    assert (touch.region, touch.x, touch.y, touch.local_x, touch.local_y) == ("knob", 272.5, 470.12, 20.0, 23.75)
    assert (touch.prev_x, touch.prev_y, touch.dx, touch.dy) == (265.0, 469.53, 22.5, 1.37)
    assert (touch.since_down_us, touch.taps, touch.raw_x, touch.raw_y, touch.pressure) == (24000, 1, 872, 2407, 60)
    assert touch.touch_major is None and touch.tool is None
    assert isinstance(touch.local_x, float)


def test_finger_event_without_scene_keys() -> None:
    touch = decode_line(DOWN_UNDISPATCHED)
    assert isinstance(touch, Touch)
    assert touch.region is None and touch.local_x is None and touch.taps is None
    assert (touch.x, touch.y, touch.pressure) == (480.0, 540.0, 9)


def test_core_keys_alone_decode() -> None:
    # What a subscriber of `"fields":[]` gets (docs/protocol.md, "Field selection"): the core of each line.
    touch = decode_line(b'{"type":"move","finger":3,"time_us":7,"x":1.5,"y":2}')
    assert isinstance(touch, Touch)
    assert (touch.finger, touch.time_us, touch.x, touch.y) == (3, 7, 1.5, 2.0)
    assert (touch.device, touch.region, touch.local_x, touch.slot, touch.raw_x) == ("", None, None, None, None)
    gesture = decode_line(
        b'{"type":"gesture","region":"r","gesture":"slide","kind":"drag","state":"changed","time_us":-7,'
        b'"x":1.38,"y":-2,"fingers":1}'
    )
    assert isinstance(gesture, Gesture)
    assert (gesture.region, gesture.kind, gesture.fingers, gesture.dx, gesture.vx) == ("r", "drag", 1, None, None)


def test_subscription_fields() -> None:
    assert subscription_fields(["touch"], fields=["region"]) == {"events": ["touch"], "fields": ["region"]}
    # An empty list is sent (the core alone); None leaves the key out (whole lines).
    assert subscription_fields(fields=[]) == {"fields": []}
    assert subscription_fields(["touch"]) == {"events": ["touch"]}
    with pytest.raises(TypeError):
        subscription_fields(fields="region")


def test_region_null_is_none() -> None:
    touch = decode_line(b'{"type":"up","finger":2,"time_us":1,"x":0,"y":0,"region":null}')
    assert isinstance(touch, Touch) and touch.region is None and touch.phase == "up"


def test_gestures() -> None:
    tap = decode_line(DOUBLE_TAP)
    assert tap == Gesture("favourite", "double-tap", "tap", "ended", 710000, 1062.5, 136.72, 1, taps=2)
    pinch = decode_line(PINCH)
    assert isinstance(pinch, Gesture)
    assert (pinch.kind, pinch.state, pinch.scale, pinch.rotation, pinch.taps) == ("pinch", "changed", 1.467, 1.14, None)


def test_gesture_name_defaults_to_kind() -> None:
    swipe = decode_line(
        b'{"type":"gesture","region":"r","kind":"swipe","state":"ended","time_us":1,"x":1,"y":2,"fingers":1,'
        b'"dx":-120,"dy":3,"direction":"left"}'
    )
    assert isinstance(swipe, Gesture) and swipe.gesture == "swipe" and swipe.direction == "left"


def test_frame_region_moved_and_notices() -> None:
    assert decode_line(b'{"type":"frame","device":"replay","time_us":5000000}') == Frame("replay", 5000000)
    assert decode_line(
        b'{"type":"region-moved","region":"knob","time_us":1404000,"frame":[52.5,16.37,50,50]}'
    ) == RegionMoved("knob", 1404000, (52.5, 16.37, 50.0, 50.0))
    added = decode_line(
        b'{"type":"device-added","device":{"device":"event5","name":"n","node":"/dev/input/event5","slots":10,'
        b'"protocol":"slotted"}}'
    )
    assert added == DeviceAdded(DeviceInfo("event5", "n", "/dev/input/event5", 10, "slotted"))
    assert decode_line(b'{"type":"device-removed","device":"event5"}') == DeviceRemoved("event5")
    changed = decode_line(
        b'{"type":"scene-changed","source":"client 3","scene":{"version":2,"width":1280,"height":800,"regions":7}}'
    )
    assert changed == SceneChanged("client 3", SceneSummary(2, 1280.0, 800.0, 7))
    assert decode_line(b'{"type":"goodbye","code":"shutdown","message":"touchd is stopping"}') == Goodbye(
        "shutdown", "touchd is stopping"
    )


def test_replies() -> None:
    ok = decode_line(b'{"type":"reply","id":9007199254740993,"ok":true,"version":3}')
    assert ok == Reply(id=9007199254740993, ok=True)
    assert isinstance(ok, Reply) and ok.raw["version"] == 3
    failed = decode_line(
        b'{"type":"reply","id":"a","ok":false,"error":{"code":"not-found","message":"no region \'x\'"}}'
    )
    assert failed == Reply(id="a", ok=False, error_code="not-found", error_message="no region 'x'")
    anonymous = decode_line(b'{"type":"reply","ok":false,"error":{"code":"bad-json","message":"m"}}')
    assert isinstance(anonymous, Reply) and anonymous.id is None


def test_unknown_type_and_keys_are_kept() -> None:
    unknown = decode_line(b'{"type":"hover","finger":1,"x":3}')
    assert unknown == UnknownEvent("hover", {"type": "hover", "finger": 1, "x": 3})
    newer = decode_line(b'{"type":"frame","device":"d","time_us":1,"latency_us":40}')
    assert newer == Frame("d", 1)
    touch = decode_line(b'{"type":"down","finger":1,"time_us":1,"x":0,"y":0,"angle":12}')
    assert isinstance(touch, Touch) and touch.raw["angle"] == 12


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (b"not json", "unreadable line"),
        (b"", "unreadable line"),
        (b"\xff\xfe", "unreadable line"),
        (b"[1,2]", "not a JSON object"),
        (b'{"finger":1}', "without a 'type'"),
        (b'{"type":"down","time_us":1,"x":0,"y":0}', "'down' line without 'finger'"),
        (b'{"type":"move","finger":"1","time_us":1,"x":0,"y":0}', "'finger' is '1', expected an integer"),
        (b'{"type":"move","finger":true,"time_us":1,"x":0,"y":0}', "expected an integer"),
        (b'{"type":"move","finger":1,"time_us":1,"x":"0","y":0}', "'x' is '0', expected a number"),
        (b'{"type":"reply","id":1.5,"ok":true}', "expected an integer or a string"),
        (b'{"type":"reply","id":1,"ok":false}', "'reply' line without 'error'"),
        (b'{"type":"region-moved","region":"r","time_us":1,"frame":[1,2,3]}', "expected \\[x, y, width, height\\]"),
        (b'{"type":"hello","protocol":1,"scene":{},"permissions":{}}', "'hello.scene' line without 'version'"),
        (b"[" * 100000 + b"]" * 100000, "unreadable line"),
        # JSON has no NaN or infinities (Python's json reads them unless told not to); a number too big for a double
        # reads as an infinity.
        (b'{"type":"down","finger":1,"time_us":1,"x":NaN,"y":0}', "NaN is not JSON"),
        (b'{"type":"down","finger":1,"time_us":1,"x":0,"y":Infinity}', "Infinity is not JSON"),
        (
            b'{"type":"gesture","region":"r","kind":"tap","state":"ended","time_us":1,"x":-Infinity,"y":0,"fingers":1}',
            "-Infinity is not JSON",
        ),
        (b'{"type":"down","finger":1,"time_us":1,"x":1e999,"y":0}', "'x' is inf, expected a number"),
        (b'{"type":"move","finger":1,"time_us":1,"x":0,"y":0,"dx":-1e400}', "'dx' is -inf, expected a number"),
        (b'{"type":"region-moved","region":"r","time_us":1,"frame":[0,0,1e999,1]}', "expected \\[x, y, width"),
    ],
)
def test_broken_lines_are_protocol_errors(line: bytes, message: str) -> None:
    with pytest.raises(ProtocolError, match=message):
        decode_line(line)
