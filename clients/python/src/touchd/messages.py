"""What touchd sends, as typed values, and the decoder that makes them from protocol lines (docs/protocol.md).

Readers ignore keys they do not know (the protocol may add keys within a version): every value keeps the whole
decoded object in `raw`, so a newer key is still reachable. A line of a type this client does not know becomes an
`UnknownEvent`. A known message without a key it must have is a `ProtocolError` naming the key.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal, TypeAlias

from .errors import ProtocolError

PROTOCOL_VERSION: Final = 1
"""The protocol version this client speaks; a hello with another version is refused (ProtocolError)."""

JSONObject: TypeAlias = Mapping[str, Any]



@dataclass(frozen=True, slots=True)
class DeviceInfo:
    """A touch device as the hello, the `devices` reply and `device-added` describe it."""

    device: str
    """The key events carry in `device` (`event5`, `replay0`)."""
    name: str
    node: str
    slots: int
    protocol: str
    """`slotted`, `protocol-a`, `single-touch` …: how the device reports contacts."""
    raw: JSONObject = field(default_factory=dict, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class SceneSummary:
    """The scene in force, as the hello and `scene-changed` summarise it."""

    version: int
    width: float
    height: float
    regions: int
    """How many regions, nested ones included."""


@dataclass(frozen=True, slots=True)
class Permissions:
    subscribe: bool
    scene: bool
    """True for root and members of `clients.sceneGroups`: this peer may change the scene."""


@dataclass(frozen=True, slots=True)
class Hello:
    """The first line of every accepted connection."""

    protocol: int
    server: str
    devices: tuple[DeviceInfo, ...]
    scene: SceneSummary
    permissions: Permissions
    raw: JSONObject = field(default_factory=dict, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Reply:
    """The answer to one request. `raw` holds the operation's result (`scene`, `version`, `devices`, `pong`)."""

    id: int | str | None
    ok: bool
    error_code: str | None = None
    error_message: str | None = None
    raw: JSONObject = field(default_factory=dict, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Goodbye:
    """touchd's last line before it closes a connection: `shutdown`, `idle`, `permission-denied`,
    `too-many-clients`."""

    code: str
    message: str


TouchPhase: TypeAlias = Literal["down", "move", "up", "cancel"]


@dataclass(frozen=True, slots=True)
class Touch:
    """One change of one finger (`down`, `move`, `up`, `cancel`), dispatched through the scene.

    After `up` or `cancel` no further event names that finger in that region. `cancel` means the touch ended
    without a proper lift (palm, device gone, events lost, region removed, end of a replay): undo what it started.
    """

    phase: TouchPhase
    device: str
    finger: int
    time_us: int
    x: float
    y: float
    slot: int | None = None
    region: str | None = None
    """The region that captured the finger at its down, or None (no region took it)."""
    local_x: float | None = None
    local_y: float | None = None
    prev_x: float | None = None
    prev_y: float | None = None
    dx: float | None = None
    dy: float | None = None
    since_down_us: int | None = None
    taps: int | None = None
    raw_x: int | None = None
    raw_y: int | None = None
    pressure: int | None = None
    touch_major: int | None = None
    touch_minor: int | None = None
    width_major: int | None = None
    width_minor: int | None = None
    orientation: int | None = None
    distance: int | None = None
    tool: str | int | None = None
    raw: JSONObject = field(default_factory=dict, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Gesture:
    """A recognizer's state change in a region (docs/protocol.md, "Gestures")."""

    region: str
    gesture: str
    """The gesture's name in the scene (defaults to its kind)."""
    kind: str
    """`tap`, `long-press`, `drag`, `long-press-drag`, `swipe`, `pinch`, `rotate`."""
    state: str
    """`pressing`, `began`, `changed`, `ended`, `failed`, `cancelled`."""
    time_us: int
    x: float
    y: float
    fingers: int
    taps: int | None = None
    dx: float | None = None
    dy: float | None = None
    vx: float | None = None
    vy: float | None = None
    direction: str | None = None
    scale: float | None = None
    rotation: float | None = None
    raw: JSONObject = field(default_factory=dict, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Frame:
    """The end of one device frame (`SYN_REPORT`) that changed at least one finger."""

    device: str
    time_us: int


@dataclass(frozen=True, slots=True)
class RegionMoved:
    """A draggable region moved; `frame` is `(x, y, width, height)` in its parent's coordinates."""

    region: str
    time_us: int
    frame: tuple[float, float, float, float]


@dataclass(frozen=True, slots=True)
class DeviceAdded:
    device: DeviceInfo


@dataclass(frozen=True, slots=True)
class DeviceRemoved:
    """A device went away; each of its live fingers was ended with `cancel` first."""

    device: str


@dataclass(frozen=True, slots=True)
class SceneChanged:
    """The scene changed: `source` is `client N`, the scene file's path and why, …"""

    source: str
    scene: SceneSummary


@dataclass(frozen=True, slots=True)
class UnknownEvent:
    """A line of a type this client does not know (a newer daemon); `raw` is the whole object."""

    type: str
    raw: JSONObject = field(compare=False)


@dataclass(frozen=True, slots=True)
class Reconnected:
    """Not a line from touchd: the client's marker in the event stream that the connection was lost and made
    again (and the subscription renewed).

    Events between the loss and the new connection are gone; fingers that were down then will get no `up` or
    `cancel` on this connection (touchd cancelled them towards the old one). Treat this like a `cancel` of every
    finger still down.
    """

    hello: Hello
    attempts: int
    """Connection attempts it took."""


Event: TypeAlias = (
    Touch | Gesture | Frame | RegionMoved | DeviceAdded | DeviceRemoved | SceneChanged | UnknownEvent | Reconnected
)
"""What a subscription yields."""

Message: TypeAlias = (
    Hello | Reply | Goodbye | Touch | Gesture | Frame | RegionMoved | DeviceAdded | DeviceRemoved | SceneChanged
    | UnknownEvent
)
"""What one line from touchd decodes to."""


class _Fields:
    """Typed access to one decoded object, with errors that name the key and the line's type."""

    __slots__ = ("obj", "kind")

    def __init__(self, obj: JSONObject, kind: str) -> None:
        self.obj = obj
        self.kind = kind

    def _missing(self, key: str, expected: str) -> ProtocolError:
        if key in self.obj:
            return ProtocolError(f"'{self.kind}' line: '{key}' is {self.obj[key]!r}, expected {expected}")
        return ProtocolError(f"'{self.kind}' line without '{key}'")

    def text(self, key: str) -> str:
        value = self.obj.get(key)
        if not isinstance(value, str):
            raise self._missing(key, "a string")
        return value

    def integer(self, key: str) -> int:
        value = self.obj.get(key)
        if not isinstance(value, int) or isinstance(value, bool):
            raise self._missing(key, "an integer")
        return value

    def number(self, key: str) -> float:
        value = self.obj.get(key)
        if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value):
            raise self._missing(key, "a number")
        return float(value)

    def flag(self, key: str) -> bool:
        value = self.obj.get(key)
        if not isinstance(value, bool):
            raise self._missing(key, "true or false")
        return value

    def child(self, key: str) -> _Fields:
        value = self.obj.get(key)
        if not isinstance(value, Mapping):
            raise self._missing(key, "an object")
        return _Fields(value, f"{self.kind}.{key}")

    def optional_text(self, key: str) -> str | None:
        return None if self.obj.get(key) is None else self.text(key)

    def optional_integer(self, key: str) -> int | None:
        return None if self.obj.get(key) is None else self.integer(key)

    def optional_number(self, key: str) -> float | None:
        return None if self.obj.get(key) is None else self.number(key)


def parse_line(line: bytes | str) -> JSONObject:
    """One protocol line as a JSON object; anything else is a `ProtocolError` quoting the start of the line."""
    try:
        value = json.loads(line, parse_constant=_not_json)
    except (ValueError, RecursionError) as error:
        # ValueError covers JSONDecodeError and UnicodeDecodeError; RecursionError: absurd nesting.
        raise ProtocolError(f"unreadable line from touchd ({error}): {_quote(line)}") from None
    if not isinstance(value, dict):
        raise ProtocolError(f"a line from touchd that is not a JSON object: {_quote(line)}")
    return value


def _not_json(constant: str) -> Any:
    """Python's json reads `NaN`, `Infinity` and `-Infinity`; JSON has no such values, and touchd never sends them."""
    raise ValueError(f"{constant} is not JSON")


def _quote(line: bytes | str, limit: int = 120) -> str:
    text = line.decode("utf-8", "replace") if isinstance(line, bytes) else line
    return repr(text if len(text) <= limit else text[:limit] + "…")


def decode_device(fields: _Fields) -> DeviceInfo:
    return DeviceInfo(
        device=fields.text("device"),
        name=fields.optional_text("name") or "",
        node=fields.optional_text("node") or "",
        slots=fields.optional_integer("slots") or 0,
        protocol=fields.optional_text("protocol") or "",
        raw=fields.obj,
    )


def decode_device_object(value: object) -> DeviceInfo:
    """A device description (`{"device": "event5", "name": …}`) as a `DeviceInfo`."""
    return decode_device(_Fields(_as_object(value, "device"), "device"))


def _scene_summary(fields: _Fields) -> SceneSummary:
    return SceneSummary(
        version=fields.integer("version"),
        width=fields.number("width"),
        height=fields.number("height"),
        regions=fields.integer("regions"),
    )


def _hello(f: _Fields) -> Hello:
    devices = f.obj.get("devices", [])
    if not isinstance(devices, list):
        raise ProtocolError(f"'hello' line: 'devices' is {devices!r}, expected a list")
    permissions = f.child("permissions")
    return Hello(
        protocol=f.integer("protocol"),
        server=f.optional_text("server") or "",
        devices=tuple(decode_device_object(item) for item in devices),
        scene=_scene_summary(f.child("scene")),
        permissions=Permissions(subscribe=permissions.flag("subscribe"), scene=permissions.flag("scene")),
        raw=f.obj,
    )


def _as_object(value: object, kind: str) -> JSONObject:
    if not isinstance(value, Mapping):
        raise ProtocolError(f"'{kind}' is {value!r}, expected an object")
    return value


def _reply(f: _Fields) -> Reply:
    identifier = f.obj.get("id")
    if identifier is not None and (not isinstance(identifier, (int, str)) or isinstance(identifier, bool)):
        raise ProtocolError(f"'reply' line: 'id' is {identifier!r}, expected an integer or a string")
    ok = f.flag("ok")
    code = message = None
    if not ok:
        error = f.child("error")
        code = error.text("code")
        message = error.optional_text("message") or ""
    return Reply(id=identifier, ok=ok, error_code=code, error_message=message, raw=f.obj)


def _touch(f: _Fields, phase: TouchPhase) -> Touch:
    tool = f.obj.get("tool")
    if tool is not None and (not isinstance(tool, (str, int)) or isinstance(tool, bool)):
        raise ProtocolError(f"'{phase}' line: 'tool' is {tool!r}, expected a string or an integer")
    return Touch(
        phase=phase,
        device=f.optional_text("device") or "",
        finger=f.integer("finger"),
        time_us=f.integer("time_us"),
        x=f.number("x"),
        y=f.number("y"),
        slot=f.optional_integer("slot"),
        region=f.optional_text("region"),
        local_x=f.optional_number("local_x"),
        local_y=f.optional_number("local_y"),
        prev_x=f.optional_number("prev_x"),
        prev_y=f.optional_number("prev_y"),
        dx=f.optional_number("dx"),
        dy=f.optional_number("dy"),
        since_down_us=f.optional_integer("since_down_us"),
        taps=f.optional_integer("taps"),
        raw_x=f.optional_integer("raw_x"),
        raw_y=f.optional_integer("raw_y"),
        pressure=f.optional_integer("pressure"),
        touch_major=f.optional_integer("touch_major"),
        touch_minor=f.optional_integer("touch_minor"),
        width_major=f.optional_integer("width_major"),
        width_minor=f.optional_integer("width_minor"),
        orientation=f.optional_integer("orientation"),
        distance=f.optional_integer("distance"),
        tool=tool,
        raw=f.obj,
    )


def _gesture(f: _Fields) -> Gesture:
    return Gesture(
        region=f.text("region"),
        gesture=f.optional_text("gesture") or f.text("kind"),
        kind=f.text("kind"),
        state=f.text("state"),
        time_us=f.integer("time_us"),
        x=f.number("x"),
        y=f.number("y"),
        fingers=f.integer("fingers"),
        taps=f.optional_integer("taps"),
        dx=f.optional_number("dx"),
        dy=f.optional_number("dy"),
        vx=f.optional_number("vx"),
        vy=f.optional_number("vy"),
        direction=f.optional_text("direction"),
        scale=f.optional_number("scale"),
        rotation=f.optional_number("rotation"),
        raw=f.obj,
    )


def _region_moved(f: _Fields) -> RegionMoved:
    frame = f.obj.get("frame")
    if (
        not isinstance(frame, list)
        or len(frame) != 4
        or not all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in frame)
    ):
        raise ProtocolError(f"'region-moved' line: 'frame' is {frame!r}, expected [x, y, width, height]")
    x, y, width, height = (float(v) for v in frame)
    return RegionMoved(region=f.text("region"), time_us=f.integer("time_us"), frame=(x, y, width, height))


def decode_object(obj: JSONObject) -> Message:
    """The typed message for one decoded line."""
    kind = obj.get("type")
    if not isinstance(kind, str):
        raise ProtocolError(f"a line from touchd without a 'type': {_quote(json.dumps(obj))}")
    f = _Fields(obj, kind)
    match kind:
        case "down" | "move" | "up" | "cancel":
            return _touch(f, kind)
        case "frame":
            return Frame(device=f.optional_text("device") or "", time_us=f.integer("time_us"))
        case "gesture":
            return _gesture(f)
        case "region-moved":
            return _region_moved(f)
        case "reply":
            return _reply(f)
        case "hello":
            return _hello(f)
        case "goodbye":
            return Goodbye(code=f.text("code"), message=f.optional_text("message") or "")
        case "device-added":
            return DeviceAdded(device=decode_device(f.child("device")))
        case "device-removed":
            return DeviceRemoved(device=f.text("device"))
        case "scene-changed":
            return SceneChanged(source=f.optional_text("source") or "", scene=_scene_summary(f.child("scene")))
        case _:
            return UnknownEvent(type=kind, raw=obj)


def decode_line(line: bytes | str) -> Message:
    """One protocol line (without its newline) as a typed message."""
    return decode_object(parse_line(line))
