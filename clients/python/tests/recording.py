"""What an evemu recording holds, read straight from its text, independently of touchd's decoder: the touches'
starts (slot and raw position), how many fingers and how many at once, and the axis ranges of its description.

Only what the tests' recording needs: protocol B with ABS_MT_SLOT and ABS_MT_TRACKING_ID (a new id starts a touch,
-1 ends it), positions kept per slot (evdev sends only values that changed), `# Event code N (…)` / `Min` / `Max`
blocks of an evemu 1.1 description.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from dataclasses import dataclass, field
from pathlib import Path

ABS_MT_SLOT, ABS_MT_POSITION_X, ABS_MT_POSITION_Y, ABS_MT_TRACKING_ID = 0x2F, 0x35, 0x36, 0x39
EV_SYN, EV_ABS = 0, 3


@dataclass(frozen=True)
class Start:
    slot: int
    raw_x: int
    raw_y: int


@dataclass
class Recording:
    ranges: dict[int, tuple[int, int]]
    starts: list[Start] = field(default_factory=list)
    max_simultaneous: int = 0
    down_at_end: int = 0
    frames_with_touch_events: int = 0

    @property
    def slots(self) -> int:
        low, high = self.ranges[ABS_MT_SLOT]
        return high - low + 1

    def scaled(self, code: int, raw: int, size: float) -> float:
        """A raw value in output units, as docs/decoding.md says: (v - min) / (max - min + 1) * size, rounded to
        two decimals, half away from zero (docs/protocol.md). Exact arithmetic, so that ties are ties."""
        low, high = self.ranges[code]
        hundredths = Fraction(raw - low, high - low + 1) * Fraction(size) * 100
        whole = math.floor(abs(hundredths) + Fraction(1, 2))
        return math.copysign(whole, hundredths) / 100


def read_description(path: Path) -> dict[int, tuple[int, int]]:
    ranges: dict[int, tuple[int, int]] = {}
    code: int | None = None
    minimum: int | None = None
    for line in path.read_text().splitlines():
        if match := re.match(r"#\s+Event code (\d+) ", line):
            code, minimum = int(match.group(1)), None
        elif (match := re.match(r"#\s+Min\s+(-?\d+)", line)) and code is not None:
            minimum = int(match.group(1))
        elif (match := re.match(r"#\s+Max\s+(-?\d+)", line)) and code is not None and minimum is not None:
            ranges[code] = (minimum, int(match.group(1)))
    return ranges


def read_recording(events: Path, description: Path) -> Recording:
    recording = Recording(ranges=read_description(description))
    slot = 0
    active: dict[int, bool] = {}
    position: dict[int, dict[int, int]] = {}
    started: list[int] = []
    touched = False
    for line in events.read_text().splitlines():
        if not line.startswith("E:"):
            continue
        _, _, kind_text, code_text, value_text = line.split()
        kind, code, value = int(kind_text, 16), int(code_text, 16), int(value_text)
        if kind == EV_ABS:
            touched = True
            if code == ABS_MT_SLOT:
                slot = value
            elif code == ABS_MT_TRACKING_ID:
                if value >= 0:
                    started.append(slot)
                active[slot] = value >= 0
            elif code in (ABS_MT_POSITION_X, ABS_MT_POSITION_Y):
                position.setdefault(slot, {})[code] = value
        elif kind == EV_SYN and code == 0:
            for begun in started:
                place = position[begun]
                recording.starts.append(Start(begun, place[ABS_MT_POSITION_X], place[ABS_MT_POSITION_Y]))
            started = []
            recording.max_simultaneous = max(recording.max_simultaneous, sum(active.values()))
            recording.frames_with_touch_events += touched
            touched = False
    recording.down_at_end = sum(active.values())
    return recording
