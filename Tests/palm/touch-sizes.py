#!/usr/bin/env python3
"""Tallies the touch sizes of evemu-text recordings: per file, each touch's largest ABS_MT_TOUCH_MAJOR (or
ABS_MT_WIDTH_MAJOR where the file has no touch major), and the axis's range and resolution where a description
(in the file, or a sibling .desc/.prop/.device) declares it. It is the evidence behind palmSize's default in
docs/configuration.md: a threshold is safe on a panel only if it is above every finger the panel reports.

    Tests/palm/touch-sizes.py FILE...     one line per file: axis, range, resolution, touches, per-touch maxima
"""
import os
import sys

TOUCH_MAJOR, WIDTH_MAJOR, SLOT, TRACKING_ID = 0x30, 0x31, 0x2F, 0x39


def description_axes(path):
    """{code: (min, max, resolution)} from A: lines of the file or a sibling description."""
    stem, _ = os.path.splitext(path)
    for candidate in [path, stem + ".desc", stem + ".prop", stem + ".device"]:
        if not os.path.isfile(candidate):
            continue
        axes = {}
        with open(candidate, errors="replace") as f:
            for line in f:
                parts = line.split()
                if len(parts) >= 5 and parts[0] == "A:":
                    code = int(parts[1], 16)
                    resolution = int(parts[6]) if len(parts) > 6 else 0
                    axes[code] = (int(parts[2]), int(parts[3]), resolution)
        if axes:
            return axes
    return {}


def touches(path, code):
    """The largest value of `code` per touch, a touch being a tracking id's life in a slot. Protocol A
    (SYN_MT_REPORT) without tracking ids has no touches to follow: there every contact report's value counts,
    and the second result is True."""
    events = []
    with open(path, errors="replace") as f:
        for line in f:
            parts = line.split("#")[0].split()
            if len(parts) == 5 and parts[0] == "E:":
                events.append((int(parts[2], 16), int(parts[3], 16), int(parts[4])))
    maxima, reports, slot, live = [], [], 0, {}
    for kind, number, value in events:
        if kind != 3:
            continue
        if number == SLOT:
            slot = value
        elif number == TRACKING_ID:
            if live.get(slot) is not None:
                maxima.append(live[slot])
            live.pop(slot, None)
            if value >= 0:
                live[slot] = None
        elif number == code:
            reports.append(value)
            if slot in live:
                live[slot] = value if live[slot] is None else max(live[slot], value)
    maxima += [v for v in live.values() if v is not None]
    return (maxima, False) if maxima else (reports, True)


def main(paths):
    for path in paths:
        axes = description_axes(path)
        with open(path, errors="replace") as f:
            text = f.read()
        codes = [c for c in (TOUCH_MAJOR, WIDTH_MAJOR) if f" 0003 {c:04x} " in text]
        if not codes:
            continue
        code = codes[0]
        values, by_report = touches(path, code)
        if not values:
            continue
        low, high, resolution = axes.get(code, (None, None, None))
        values.sort()
        name = "TOUCH_MAJOR" if code == TOUCH_MAJOR else "WIDTH_MAJOR"
        unit = "reports" if by_report else "touches"
        print(f"{path}: {name} range {low}..{high} res {resolution}; {len(values)} {unit}; "
              f"min {values[0]} median {values[len(values) // 2]} max {values[-1]}")


if __name__ == "__main__":
    main(sys.argv[1:])
