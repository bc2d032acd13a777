#!/usr/bin/env python3
"""Jitter, lag and output volume of touchd's position filters (and libinput's) on one recording.

Reads NDJSON finger streams that `touchd replay --filter MODE` wrote for the same recording, the first with
`--filter off` (the kernel's positions: the reference), and optionally the text `libinput debug-events` printed
for the same stream on a real kernel. For each output it prints:

  jitter    standard deviation of the reported position while the finger is still (device units): over every
            stretch of at least STILL_MS in which the kernel's position stays within STILL_RADIUS of where the
            stretch began, the reported position sampled at each kernel frame (the last one reported by then),
            sqrt(var x + var y), averaged over stretches weighted by their frames;
  wiggle    the reported position's path length per second over the same still stretches (device units/s): how
            much a still finger's position visibly moves, which a slow drift barely adds to;
  lag       mean distance (device units) between the kernel's position and the reported one at kernel frames where
            the finger moves fast (its kernel position moved at least FAST_FRACTION of the device diagonal per
            second over the last FAST_WINDOW_MS);
  moves/s   move events per second of the recording (first to last finger event).

With `--require-parity MODE` (and `--libinput`), the exit status is 1 unless MODE's jitter and lag are each at
most libinput's plus TOLERANCE device units (the aim: less jitter than libinput at equal or smaller lag), where
both have samples (one without where the other has some fails): a regression of the default filter fails the
run that measures it.

Standard library only. Usage:
  jitter_measure.py --label NAME --diagonal D OFF.ndjson [MODE=FILE.ndjson ...] [--libinput FILE.txt]
                    [--require-parity MODE]
"""
import json
import math
import re
import sys

STILL_MS = 200
STILL_FRACTION = 0.005  # of the diagonal: a still finger stays within 0.5 % of it
FAST_FRACTION = 0.5  # of the diagonal per second
FAST_WINDOW_MS = 50
# Device units: the live runs repeat to about a hundredth; a filter that gives up on a case moves by whole units.
TOLERANCE = 0.05


def read_ndjson(path):
    """Per finger: [(time_us, x, y, raw_x, raw_y, type)], in order; and the count of moves."""
    fingers = {}
    moves = 0
    times = []
    with open(path) as f:
        for line in f:
            event = json.loads(line)
            kind = event.get("type")
            if kind not in ("down", "move", "up", "cancel"):
                continue
            if kind == "move":
                moves += 1
            times.append(event["time_us"])
            fingers.setdefault(event["finger"], []).append(
                (event["time_us"], event["x"], event["y"], event["raw_x"], event["raw_y"], kind))
    return fingers, moves, (min(times), max(times)) if times else (0, 0)


LIBINPUT_LINE = re.compile(
    r"TOUCH_(DOWN|MOTION|UP|CANCEL)\s+\+([\d.]+)s\s+(\d+) \((\d+)\)"
    r"(?:\s+(-?[\d.]+)/\s*(-?[\d.]+)\s+\((-?[\d.]+)/\s*(-?[\d.]+)mm\))?")


def read_libinput(path, reference):
    """libinput debug-events: TOUCH_DOWN/MOTION/UP lines with +seconds and positions. The devices measured declare
    no resolution, so libinput takes 1 unit a millimetre and its mm column is device units from the axis minimum,
    exactly (the percent column has two decimals only). Times are aligned on the first down of `reference`
    (the tool prints the first event's offset as 4294967.295 s, an unsigned -1 µs: taken as 0). Touches are
    matched to touchd's fingers in order of their downs."""
    touches = {}
    order = []
    moves = 0
    with open(path) as f:
        for line in f:
            match = LIBINPUT_LINE.search(line)
            if not match:
                continue
            kind = match.group(1).lower()
            seconds = float(match.group(2))
            time_us = 0 if seconds > 4294967 else round(seconds * 1e6)
            seat_slot = match.group(4)
            if kind == "down":
                touches[seat_slot] = []
                order.append(touches[seat_slot])
            if seat_slot not in touches:
                continue
            if match.group(7) is not None:
                x, y = float(match.group(7)), float(match.group(8))
            else:
                last = touches[seat_slot][-1] if touches[seat_slot] else (0, 0, 0)
                x, y = last[1], last[2]
            if kind == "motion":
                moves += 1
            touches[seat_slot].append((time_us, x, y, None, None, "move" if kind == "motion" else kind))
            if kind in ("up", "cancel"):
                del touches[seat_slot]
    ref_downs = sorted((events[0][0], finger) for finger, events in reference.items())
    if not order or not ref_downs:
        return {}, moves, (0, 0)
    shift = ref_downs[0][0] - order[0][0][0]
    fingers = {}
    for (_, finger), events in zip(ref_downs, order):
        fingers[finger] = [(t + shift, x, y, rx, ry, k) for (t, x, y, rx, ry, k) in events]
    times = [e[0] for events in fingers.values() for e in events]
    return fingers, moves, (min(times), max(times))


def held(reported, t):
    """The last reported (x, y) at or before time t (the down's, at the least)."""
    position = (reported[0][1], reported[0][2])
    for event in reported:
        if event[0] > t:
            break
        position = (event[1], event[2])
    return position


def samples(reference, reported):
    """Per finger, per kernel frame: (t, raw x, raw y, reported x, reported y), the reported position in the
    reference's units (touchd writes x = device x - axis minimum, libinput's touches are device units from the axis
    minimum too; the down is never filtered, so its offset is raw - reported)."""
    result = {}
    for finger, ref in reference.items():
        rep = reported.get(finger)
        if not rep:
            continue
        ox = ref[0][3] - ref[0][1]
        oy = ref[0][4] - ref[0][2]
        rows = []
        j = 0
        position = (rep[0][1], rep[0][2])
        for (t, _, _, rx, ry, _) in ref:
            while j < len(rep) and rep[j][0] <= t:
                position = (rep[j][1], rep[j][2])
                j += 1
            rows.append((t, rx, ry, position[0] + ox, position[1] + oy))
        result[finger] = rows
    return result


def still_stretches(rows, radius):
    stretches = []
    i = 0
    while i < len(rows):
        j = i
        while j + 1 < len(rows) and math.hypot(rows[j + 1][1] - rows[i][1], rows[j + 1][2] - rows[i][2]) <= radius:
            j += 1
        if rows[j][0] - rows[i][0] >= STILL_MS * 1000 and j - i >= 4:
            stretches.append(rows[i:j + 1])
            i = j + 1
        else:
            i += 1
    return stretches


def measure(per_finger, diagonal):
    jitter_sum = 0.0
    jitter_n = 0
    path = 0.0
    still_seconds = 0.0
    lag_sum = 0.0
    lag_n = 0
    for rows in per_finger.values():
        for stretch in still_stretches(rows, STILL_FRACTION * diagonal):
            xs = [r[3] for r in stretch]
            ys = [r[4] for r in stretch]
            mx = sum(xs) / len(xs)
            my = sum(ys) / len(ys)
            var = sum((x - mx) ** 2 for x in xs) / len(xs) + sum((y - my) ** 2 for y in ys) / len(ys)
            jitter_sum += math.sqrt(var) * len(stretch)
            jitter_n += len(stretch)
            path += sum(math.hypot(b[3] - a[3], b[4] - a[4]) for a, b in zip(stretch, stretch[1:]))
            still_seconds += (stretch[-1][0] - stretch[0][0]) / 1e6
        start = 0
        for i, row in enumerate(rows):
            while rows[start][0] < row[0] - FAST_WINDOW_MS * 1000:
                start += 1
            span = (row[0] - rows[start][0]) / 1e6
            if span <= 0:
                continue
            speed = math.hypot(row[1] - rows[start][1], row[2] - rows[start][2]) / span
            if speed >= FAST_FRACTION * diagonal:
                lag_sum += math.hypot(row[1] - row[3], row[2] - row[4])
                lag_n += 1
    jitter = jitter_sum / jitter_n if jitter_n else float("nan")
    lag = lag_sum / lag_n if lag_n else float("nan")
    wiggle = path / still_seconds if still_seconds else float("nan")
    return jitter, jitter_n, wiggle, lag, lag_n


def main(argv):
    label = "recording"
    diagonal = None
    outputs = []
    libinput = None
    parity = None
    i = 0
    while i < len(argv):
        if argv[i] == "--label":
            label = argv[i + 1]
            i += 2
        elif argv[i] == "--diagonal":
            diagonal = float(argv[i + 1])
            i += 2
        elif argv[i] == "--libinput":
            libinput = argv[i + 1]
            i += 2
        elif argv[i] == "--require-parity":
            parity = argv[i + 1]
            i += 2
        else:
            name, _, path = argv[i].rpartition("=")
            outputs.append((name or "none", path))
            i += 1
    if not outputs or diagonal is None or (parity and not libinput):
        print(__doc__, file=sys.stderr)
        return 2
    reference, ref_moves, (first, last) = read_ndjson(outputs[0][1])
    seconds = max((last - first) / 1e6, 1e-6)
    rows = []
    for name, path in outputs:
        fingers, moves, _ = read_ndjson(path)
        rows.append((name, measure(samples(reference, fingers), diagonal), moves))
    if libinput:
        fingers, moves, _ = read_libinput(libinput, reference)
        rows.append(("libinput", measure(samples(reference, fingers), diagonal), moves))
    for name, (jitter, jitter_n, wiggle, lag, lag_n), moves in rows:
        print(f"{label:<10} {name:<9} jitter {jitter:6.2f} wiggle {wiggle:7.1f}/s ({jitter_n:4d} still frames)  "
              f"lag {lag:6.2f} ({lag_n:4d} fast frames)  moves/s {moves / seconds:6.1f}")
    if parity:
        return parity_status(label, parity, rows)
    return 0


def parity_status(label, mode, rows):
    """0 when `mode`'s jitter and lag are within TOLERANCE of libinput's or below (a figure without samples on
    both sides is not compared); otherwise 1, saying which. The still and fast frames come from the reference
    stream alone, so a figure with samples on one side only means the other lost its fingers (libinput's output
    or the mode's was empty): that fails, not passes unmeasured."""
    figures = {name: (jitter, lag) for name, (jitter, _, _, lag, _), _ in rows}
    if mode not in figures:
        print(f"{label}: no row {mode!r} to compare with libinput", file=sys.stderr)
        return 1
    failures = []
    for index, what in ((0, "jitter"), (1, "lag")):
        ours, theirs = figures[mode][index], figures["libinput"][index]
        if math.isnan(ours) != math.isnan(theirs):
            side = mode if math.isnan(ours) else "libinput"
            failures.append(f"{what}: no samples from {side} where the other has some")
        elif not math.isnan(ours) and ours > theirs + TOLERANCE:
            failures.append(f"{what} {ours:.2f} > libinput's {theirs:.2f}")
    for failure in failures:
        print(f"FAIL {label}: {mode} {failure} (tolerance {TOLERANCE})", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
