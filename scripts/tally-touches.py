#!/usr/bin/env python3
"""Tallies each touch of an evemu recording from its raw events, independently of touchd: when it went down and
up (ms from the first down), the largest distance from its down, when it first went beyond 10 units, and its end
minus its start. The answers RelationReplayTests checks touchd's gestures against.

Protocol B: a slot keeps its axis values across tracking ids, as the kernel does. Protocol A (SYN_MT_REPORT):
one finger only, down while a frame reports a contact.

    scripts/tally-touches.py FILE...
"""
import math
import sys


def touches(path):
    slot, values, live, found, contacts, current = 0, {}, {}, [], [], {}
    protocol_a_touch = None
    lines = [line for line in open(path, errors="replace") if line.startswith("E: ")]
    protocol_a = any(line.split()[2:4] == ["0000", "0002"] for line in lines)
    for line in lines:
        _, time, kind, code, value = line.split()[:5]
        time, kind, code, value = float(time), int(kind, 16), int(code, 16), int(value)
        if kind == 3 and code == 0x2F:
            slot = value
        elif kind == 3 and code == 0x39 and not protocol_a:
            if value == -1:
                ended = live.pop(slot, None)
                if ended:
                    ended["up"] = time
            else:
                live[slot] = {"points": [], "up": None}
                found.append(live[slot])
        elif kind == 3 and code in (0x35, 0x36):
            values.setdefault(slot, {})[code] = value
            current[code] = value
        elif kind == 0 and code == 2:  # SYN_MT_REPORT
            if 0x35 in current and 0x36 in current:
                contacts.append((current[0x35], current[0x36]))
            current = {}
        elif kind == 0 and code == 0:  # SYN_REPORT
            for number, touch in live.items():
                axes = values.get(number, {})
                if 0x35 in axes and 0x36 in axes:
                    touch["points"].append((time, axes[0x35], axes[0x36]))
            if protocol_a:
                if contacts:
                    if protocol_a_touch is None:
                        protocol_a_touch = {"points": [], "up": None}
                        found.append(protocol_a_touch)
                    protocol_a_touch["points"].append((time, *contacts[0]))
                elif protocol_a_touch:
                    protocol_a_touch["up"] = time
                    protocol_a_touch = None
            contacts = []
    return [touch for touch in found if touch["points"]]


def main():
    for path in sys.argv[1:]:
        found = touches(path)
        start = min(touch["points"][0][0] for touch in found) if found else 0
        print(path, len(found))
        for touch in found:
            t0, x0, y0 = touch["points"][0]
            farthest, beyond = 0.0, None
            for time, x, y in touch["points"]:
                distance = math.hypot(x - x0, y - y0)
                farthest = max(farthest, distance)
                if distance > 10 and beyond is None:
                    beyond = round((time - t0) * 1000)
            _, x1, y1 = touch["points"][-1]
            up = "-" if touch["up"] is None else round((touch["up"] - start) * 1000)
            print(f"  down {round((t0 - start) * 1000)} up {up} farthest {farthest:.0f} beyond-10 {beyond} "
                  f"moved ({x1 - x0}, {y1 - y0}) from ({x0}, {y0})")


main()
