#!/usr/bin/env python3
"""Checks the virtual touchscreen guest's output (Tests/vm/guest-uinput.sh, part A) against the recording itself.

The expected split is worked out here from the evemu recording alone, with no touchd code: each finger's
protocol B stream (slot, tracking id, positions at each SYN_REPORT), and whether it went down inside the left
edge the scene claims (scene = raw units: the scene is the device's size). Then:
  - libinput debug-events, reading the virtual touchscreen, must show exactly the fingers outside the edge, each
    with the recording's positions (down, every change, up). libinput prints millimetres, (raw - min) / resolution
    (a resolution of 0 is taken as 1 by libinput), and a percentage of the axis, (raw - min) / (max - min + 1);
    both are turned back into raw units and must round to the recording's integers.
  - the socket client (touchctl monitor) must show the edge fingers on the edge region with the same raw
    positions, and the others with no region.
Prints PASS/FAIL lines like the guests; exits 1 on any FAIL.
"""
import argparse
import json
import re
import sys


def axes(desc_path):
    """min, max, resolution of ABS_MT_POSITION_X/Y from an evemu description's A: lines."""
    found = {}
    for line in open(desc_path):
        parts = line.split()
        if parts[:1] == ["A:"] and parts[1] in ("35", "36"):
            # Older evemu files have no resolution column: none, as for the kernel.
            found[parts[1]] = (int(parts[2]), int(parts[3]), int(parts[6]) if len(parts) > 6 else 0)
    return found["35"], found["36"]


def recording_fingers(events_path):
    """Each finger of a protocol B recording: its positions, one per frame that changed them, in order."""
    slot, ids, pos, live, fingers = 0, {}, {}, {}, []
    changed = set()
    for line in open(events_path):
        parts = line.split()
        if parts[:1] != ["E:"]:
            continue
        etype, code, value = int(parts[2], 16), int(parts[3], 16), int(parts[4])
        if etype == 3 and code == 0x2F:
            slot = value
        elif etype == 3 and code == 0x39:
            ids[slot] = value
            changed.add(slot)
        elif etype == 3 and code in (0x35, 0x36):
            x, y = pos.get(slot, (0, 0))
            pos[slot] = (value, y) if code == 0x35 else (x, value)
            changed.add(slot)
        elif etype == 0 and code == 0:
            for s in sorted(changed):
                tid = ids.get(s, -1)
                current = live.get(s)
                if current is not None and current["id"] != tid:
                    del live[s]
                    current = None
                if tid < 0:
                    continue
                if current is None:
                    current = {"id": tid, "positions": [pos[s]], "order": len(fingers)}
                    live[s] = current
                    fingers.append(current)
                elif current["positions"][-1] != pos[s]:
                    current["positions"].append(pos[s])
            changed.clear()
    for finger in live.values():
        finger["left_down"] = True
    return fingers, len(live)


TOUCH = re.compile(
    r"(TOUCH_DOWN|TOUCH_MOTION|TOUCH_UP|TOUCH_CANCEL)\s+\+?[\d.]+s\s+(\d+) \(\d+\)"
    r"(?:\s+([\d.]+)/\s*([\d.]+) \(\s*([\d.]+)/\s*([\d.]+)mm\))?")


def libinput_fingers(path, lines, x_axis, y_axis):
    """libinput's touches from debug-events: per slot, positions from down to up, as raw units (by mm and by %)."""
    def raw_mm(mm, axis):
        low, _, res = axis
        return low + float(mm) * (res or 1)

    def raw_percent(pct, axis):
        low, high, _ = axis
        return low + float(pct) / 100 * (high - low + 1)

    open_by_slot, fingers, mismatched, ended = {}, [], [], 0
    for line in open(path).read().splitlines()[:lines]:
        match = TOUCH.search(line)
        if not match:
            continue
        kind, slot = match.group(1), int(match.group(2))
        if kind in ("TOUCH_DOWN", "TOUCH_MOTION"):
            by_mm = (raw_mm(match.group(5), x_axis), raw_mm(match.group(6), y_axis))
            by_pct = (raw_percent(match.group(3), x_axis), raw_percent(match.group(4), y_axis))
            point = (round(by_mm[0]), round(by_mm[1]))
            if (round(by_pct[0]), round(by_pct[1])) != point or max(abs(by_mm[0] - point[0]), abs(by_mm[1] - point[1])) > 0.02:
                mismatched.append(line)
            if kind == "TOUCH_DOWN":
                finger = {"positions": [point]}
                open_by_slot[slot] = finger
                fingers.append(finger)
            elif slot in open_by_slot and open_by_slot[slot]["positions"][-1] != point:
                open_by_slot[slot]["positions"].append(point)
        elif slot in open_by_slot:
            del open_by_slot[slot]
            ended += 1
    return fingers, mismatched, len(open_by_slot), ended


def client_fingers(path, lines):
    """touchctl's touches: per finger id, its region and raw positions."""
    fingers = {}
    for line in open(path).read().splitlines()[:lines]:
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if event.get("type") not in ("down", "move", "up", "cancel"):
            continue
        finger = fingers.setdefault(event["finger"], {"region": event.get("region"), "positions": [], "types": []})
        finger["types"].append(event["type"])
        point = (event["raw_x"], event["raw_y"])
        if event["type"] in ("down", "move") and (not finger["positions"] or finger["positions"][-1] != point):
            finger["positions"].append(point)
    return list(fingers.values())


def follows(seen, expected):
    """Clients get touchd's filtered stream (the default jitter filter holds back small moves, raw_x/raw_y stay the
    kernel's): each finger must go down where the recording's does, and every position it reports must be the
    recording's, in order (a subsequence), ending where it ends."""
    if len(seen) != len(expected):
        return False
    for got, want in zip(seen, expected):
        if not got or got[0] != want[0]:
            return False
        rest = iter(want)
        if not all(point in rest for point in got):
            return False
    return True


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--desc", required=True)
    parser.add_argument("--events", required=True)
    parser.add_argument("--edge", type=int, required=True, help="raw x below which the scene claims the finger")
    parser.add_argument("--libinput", required=True)
    parser.add_argument("--libinput-lines", type=int, required=True)
    parser.add_argument("--client", required=True)
    parser.add_argument("--client-lines", type=int, required=True)
    parser.add_argument("--cut-events", help="part D: the cut recording played before touchd was stopped")
    parser.add_argument("--cut-libinput", help="part D: libinput debug-events on that run's virtual touchscreen")
    args = parser.parse_args()

    x_axis, y_axis = axes(args.desc)
    fingers, left_down = recording_fingers(args.events)
    edge = [f["positions"] for f in fingers if f["positions"][0][0] < args.edge]
    outside = [f["positions"] for f in fingers if f["positions"][0][0] >= args.edge]
    seen, mismatched, stuck, ended = libinput_fingers(args.libinput, args.libinput_lines, x_axis, y_axis)
    seen = [f["positions"] for f in seen]
    client = client_fingers(args.client, args.client_lines)
    client_edge = [f["positions"] for f in client if f["region"] == "left-edge"]
    client_none = [f["positions"] for f in client if f["region"] is None]
    points = sum(len(p) for p in outside)

    failed = False

    def check(name, ok, detail=""):
        nonlocal failed
        print(("PASS: " if ok else "FAIL: ") + name + (f" ({detail})" if detail and not ok else ""))
        failed |= not ok

    print(f"== the recording: {len(fingers)} fingers, {len(edge)} go down inside the edge (x < {args.edge}), "
          f"{len(outside)} outside with {points} positions; {left_down} left down at its end")
    print(f"== libinput on the virtual touchscreen: {len(seen)} fingers, {sum(len(p) for p in seen)} positions; "
          f"touchctl: {len(client_edge)} on the edge, {len(client_none)} with no region")
    check(f"libinput saw exactly the {len(outside)} fingers outside the edge, in order, each with the recording's "
          f"raw positions ({points} positions compared)", seen == outside,
          f"expected {outside[:3]}..., saw {seen[:3]}...")
    check("libinput's millimetres and percentages both give back the recording's integers", not mismatched,
          f"{len(mismatched)} lines, first: {mismatched[:1]}")
    check(f"every finger libinput saw ended ({ended} ups, none stuck)", stuck == 0 and ended == len(seen))
    held_back = points + sum(len(p) for p in edge) - sum(len(p) for p in client_edge + client_none)
    check(f"touchctl saw the {len(edge)} edge fingers on the edge region: down where the recording's go down, "
          f"every position the recording's, in order", follows(sorted(client_edge), sorted(edge)),
          f"expected {edge}, saw {client_edge}")
    check(f"touchctl saw the {len(outside)} others with no region, the same way "
          f"({held_back} small moves held back by touchd's jitter filter, none by the virtual touchscreen)",
          follows(sorted(client_none), sorted(outside)))
    check("the split is a real one: fingers on both sides", len(edge) > 0 and len(outside) > 0)
    if args.cut_events and args.cut_libinput:
        cut, _ = recording_fingers(args.cut_events)
        cut_outside = [f for f in cut if f["positions"][0][0] >= args.edge]
        held = sum(1 for f in cut_outside if f.get("left_down"))
        lines = open(args.cut_libinput).read().split("DEVICE_REMOVED")[0].count("\n")
        seen_cut, _, stuck_cut, ended_cut = libinput_fingers(args.cut_libinput, lines, x_axis, y_axis)
        check(f"part D: libinput saw the cut recording's {len(cut_outside)} fingers outside the edge with its positions, "
              f"and the {held} it leaves down were lifted when touchd stopped, before the device went",
              [f["positions"] for f in seen_cut] == [f["positions"] for f in cut_outside]
              and held > 0 and stuck_cut == 0 and ended_cut == len(cut_outside))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
