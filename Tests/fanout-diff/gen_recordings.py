#!/usr/bin/env python3
"""Writes evemu recordings (protocol B) that stress how touchd prints numbers: times within one second, across
second and digit-count boundaries, backwards, equal, near 0 and near the end of Int64 microseconds; coordinates at
axis limits, on negative and huge axis ranges, at .005 rounding cases; one-finger drags and pinches for scenes.

    gen_recordings.py OUTDIR [--seed N] [--random N]

Each recording is OUTDIR/NAME.events; scenes for them are OUTDIR/NAME.scene.json where one fits (replay_diff.sh
uses them). Deterministic for a seed."""
import json
import os
import random
import sys

SLOT, TRACKING, X, Y, PRESSURE, MAJOR = 0x2F, 0x39, 0x35, 0x36, 0x3A, 0x30


def header(name, xmin=0, xmax=4095, ymin=0, ymax=4095, xres=0, yres=0, pressure=False, major=False, slots=10):
    lines = [
        "# EVEMU 1.3",
        f"N: {name}",
        "I: 0003 0001 0001 0001",
        "P: 02 00 00 00 00 00 00 00",
        f"A: 2f 0 {slots - 1} 0 0 0",
    ]
    if major:
        lines.append("A: 30 0 255 0 0 0")
    lines += [f"A: 35 {xmin} {xmax} 0 0 {xres}", f"A: 36 {ymin} {ymax} 0 0 {yres}", "A: 39 0 65535 0 0 0"]
    if pressure:
        lines.append("A: 3a 0 255 0 0 0")
    return "\n".join(lines) + "\n"


class Rec:
    """Events of one recording; times in microseconds (Python ints: any size)."""

    def __init__(self):
        self.lines = []
        self.next_id = 1

    @staticmethod
    def stamp(us):
        sign = "-" if us < 0 else ""
        us = abs(us)
        return f"{sign}{us // 1_000_000}.{us % 1_000_000:06d}"

    def ev(self, us, code, value, type_=3):
        self.lines.append(f"E: {self.stamp(us)} {type_:04x} {code:04x} {value}")

    def syn(self, us):
        self.ev(us, 0, 0, type_=0)

    def down(self, us, slot, x, y, extra=()):
        self.ev(us, SLOT, slot)
        self.ev(us, TRACKING, self.next_id)
        self.next_id = self.next_id % 65000 + 1
        self.ev(us, X, x)
        self.ev(us, Y, y)
        for code, value in extra:
            self.ev(us, code, value)

    def move(self, us, slot, x=None, y=None, extra=()):
        self.ev(us, SLOT, slot)
        if x is not None:
            self.ev(us, X, x)
        if y is not None:
            self.ev(us, Y, y)
        for code, value in extra:
            self.ev(us, code, value)

    def up(self, us, slot):
        self.ev(us, SLOT, slot)
        self.ev(us, TRACKING, -1)

    def text(self):
        return "\n".join(self.lines) + "\n"


def tap_at_times(times, x=640, y=640):
    """A finger down at the first time, moving one unit each frame at the others, lifted at the last."""
    rec = Rec()
    rec.down(times[0], 0, x, y)
    rec.syn(times[0])
    for i, t in enumerate(times[1:-1]):
        rec.move(t, 0, x + (i % 50) + 1)
        rec.syn(t)
    rec.up(times[-1], 0)
    rec.syn(times[-1])
    return rec


def time_cases(rng):
    cases = {}
    s = 1_000_000
    cases["t-within-second"] = [s + i * 997 for i in range(1000)]
    cases["t-cross-seconds"] = [s * k + d for k in range(1, 40) for d in (999_998, 999_999, 1_000_000, 1_000_001)]
    cases["t-near-zero"] = [0, 0, 1, 2, 9, 10, 99, 100, 999, 1000, 99_999, 100_000, 999_999, 1_000_000, 1_000_001]
    cases["t-9.999999"] = [9_999_990, 9_999_999, 10_000_000, 10_000_001, 99_999_999, 100_000_000, 100_000_001]
    cases["t-99999.999999"] = [99_999_999_990, 99_999_999_999, 100_000_000_000, 100_000_000_001, 100_000_999_999]
    cases["t-digit-steps"] = [10**k - 1 for k in range(1, 19)] + [10**k for k in range(1, 19)]
    cases["t-digit-steps-sorted"] = sorted(cases["t-digit-steps"])
    cases["t-backwards"] = [5 * s + 500_000, 5 * s + 400_000, 5 * s + 400_000, 4 * s + 999_999, 6 * s, 5 * s + 1, 5 * s]
    cases["t-backwards-digits"] = [10 * s, 9 * s + 999_999, 10 * s, 100 * s - 1, 10 * s - 1, 1000 * s, 999 * s]
    cases["t-equal"] = [7 * s + 123_456] * 30
    cases["t-9e9"] = [9_000_000_000 * s + i * 333_333 for i in range(40)]
    cases["t-1e10"] = [10_000_000_000 * s - 3 + i for i in range(8)] + [99_999_999_999 * s + 999_998 + i for i in range(4)]
    end = 2**63 - 1
    cases["t-int64-end"] = [end - 3_000_000 + i * 250_000 for i in range(12)] + [end - 1, end]
    cases["t-same-second-16-17"] = [9_999_999_999 * s + 999_000 + i * 300 for i in range(8)] + [
        10_000_000_000 * s + i for i in range(8)
    ]
    rand = []
    t = rng.randrange(0, 10**12)
    for _ in range(600):
        step = rng.choice([0, 1, 7, 1000, 16_667, 999_999, 1_000_000, -1000, -1_000_000, 10**9])
        t = max(0, min(end, t + step))
        rand.append(t)
    cases["t-random-walk"] = rand
    return {name: header(name) + tap_at_times(times).text() for name, times in cases.items()}


def coordinate_cases(rng):
    out = {}
    axes = {
        "c-plain": (0, 4095, 0, 4095, 0),
        "c-negative": (-32768, 32767, -1000, -1, 11),
        "c-huge": (-(2**31), 2**31 - 1, -(2**31), 2**31 - 1, 40),
        "c-tiny": (0, 1, 0, 2, 0),
        "c-odd": (-7, 192, 3, 202, 3),
        "c-offset": (100000, 100999, -2**30, 2**30, 1),
    }
    for name, (xmin, xmax, ymin, ymax, res) in axes.items():
        rec = Rec()
        t = 1_000_000
        points = [(xmin, ymin), (xmax, ymax), (xmin, ymax), (xmax, ymin), ((xmin + xmax) // 2, (ymin + ymax) // 2)]
        for _ in range(200):
            points.append((rng.randint(xmin, xmax), rng.randint(ymin, ymax)))
        # Two fingers through the points: slot 0 walks them, slot 1 walks them backwards.
        rec.down(t, 0, *points[0], extra=((PRESSURE, 0),))
        rec.down(t, 1, *points[-1], extra=((PRESSURE, 255), (MAJOR, 17)))
        rec.syn(t)
        for i, (px, py) in enumerate(points[1:]):
            t += rng.choice([1, 8000, 16_667, 999_999])
            qx, qy = points[-2 - i] if i + 2 <= len(points) else points[0]
            rec.move(t, 0, px, py, extra=((PRESSURE, i % 256),))
            rec.move(t, 1, qx, qy)
            rec.syn(t)
            if i % 37 == 36:
                rec.up(t + 1, 1)
                rec.syn(t + 1)
                rec.down(t + 2, 1, qx, qy)
                rec.syn(t + 2)
                t += 2
        rec.up(t + 5, 0)
        rec.up(t + 5, 1)
        rec.syn(t + 5)
        out[name] = header(name, xmin, xmax, ymin, ymax, res, res, pressure=True, major=True) + rec.text()
    return out


def drag_scene(width, height, region_frame, extra_regions=()):
    regions = [
        {
            "id": "pad",
            "frame": region_frame,
            "draggable": True,
            "gestures": ["drag", "tap", {"type": "long-press", "durationMs": 300}],
        },
        {"id": "pinchy", "frame": [0, 0, width / 2, height], "z": -1, "gestures": ["pinch", "rotate"],
         "simultaneous": [["pinch", "rotate"]]},
    ]
    regions += list(extra_regions)
    return {"version": 1, "size": [width, height], "regions": regions}


def scene_cases(rng):
    """One-finger drags (dx/dy memoised from the touch line into the drag's line), pinches, and .005 cases."""
    out = {}
    # A region at a fractional origin, so local coordinates land on halves of a hundredth and on -0.
    sizes = [(1280, 800), (1000, 1000), (333, 777), (12345, 6789)]
    for index, (width, height) in enumerate(sizes):
        name = f"s-drag-{index}"
        xmax = rng.choice([199, 4095, 32767, 999])
        ymax = rng.choice([199, 4095, 32767, 999])
        frame = [width / 2 + 0.005, 0.125, width / 2 - 0.5, height - 0.25]
        rec = Rec()
        t = rng.randrange(0, 10**10)
        for stroke in range(12):
            x = rng.randint(xmax // 2, xmax)
            y = rng.randint(0, ymax)
            rec.down(t, 0, x, y)
            rec.syn(t)
            for _ in range(rng.randint(1, 60)):
                t += rng.choice([1, 999, 8000, 16_667, 400_000])
                x = max(0, min(xmax, x + rng.randint(-40, 40)))
                y = max(0, min(ymax, y + rng.randint(-40, 40)))
                rec.move(t, 0, x, y)
                rec.syn(t)
            t += 5000
            rec.up(t, 0)
            rec.syn(t)
            t += rng.choice([50_000, 200_000, 1_000_000])
            # A pinch on the left half: two fingers spreading and turning.
            ax, ay = rng.randint(0, xmax // 3), rng.randint(0, ymax)
            bx, by = rng.randint(0, xmax // 3), rng.randint(0, ymax)
            rec.down(t, 0, ax, ay)
            rec.down(t, 1, bx, by)
            rec.syn(t)
            for _ in range(rng.randint(3, 40)):
                t += rng.choice([1, 8000, 16_667])
                ax = max(0, min(xmax, ax + rng.randint(-30, 30)))
                by = max(0, min(ymax, by + rng.randint(-30, 30)))
                rec.move(t, 0, ax, None)
                rec.move(t, 1, None, by)
                rec.syn(t)
            t += 3000
            rec.up(t, 0)
            rec.syn(t)
            t += 3000
            rec.up(t, 1)
            rec.syn(t)
            t += rng.choice([1, 100_000, 1_000_000])
        out[name] = (header(name, 0, xmax, 0, ymax) + rec.text(), drag_scene(width, height, frame))
    return out


def random_cases(rng, count):
    """Several fingers with random times, axes and moves: anything the other cases did not think of."""
    out = {}
    for n in range(count):
        name = f"r-{n}"
        span = rng.choice([1, 2, 100, 4096, 65536, 2**20, 2**31])
        xmin = rng.choice([0, -span, -span // 2, 7])
        ymin = rng.choice([0, -span, 3])
        xmax, ymax = xmin + span, ymin + rng.choice([span, max(1, span // 3)])
        xmax = min(xmax, 2**31 - 1)
        ymax = min(ymax, 2**31 - 1)
        rec = Rec()
        t = rng.choice([0, rng.randrange(0, 10**7), rng.randrange(0, 10**13), 2**63 - 10**9])
        live = {}
        for _ in range(rng.randint(20, 400)):
            t = max(0, min(2**63 - 1, t + rng.choice([0, 1, 13, 8000, 16_667, 999_999, 1_000_000, -5])))
            slot = rng.randrange(0, 4)
            if slot in live and rng.random() < 0.1:
                rec.up(t, slot)
                del live[slot]
            elif slot not in live:
                live[slot] = True
                rec.down(t, slot, rng.randint(xmin, xmax), rng.randint(ymin, ymax), extra=((PRESSURE, rng.randint(0, 255)),))
            else:
                rec.move(t, slot, rng.randint(xmin, xmax), rng.randint(ymin, ymax))
            if rng.random() < 0.7:
                rec.syn(t)
        rec.syn(t)
        width = rng.choice([1280, 1, 3, 99999, 7.5])
        height = rng.choice([800, 1, 99999, 2.25])
        scene = drag_scene(width, height, [width / 3 - 0.005, -height / 7, width / 2, height * 2])
        out[name] = (header(name, xmin, xmax, ymin, ymax, 5, 0, pressure=True) + rec.text(), scene)
    return out


def dense_cases(rng):
    """For the daemon (fanout_diff.py): a few seconds of drags on a draggable region, pinches, taps, a long press
    and fingers on no region, a frame every few milliseconds, so that every event kind and both coalescing keys
    come often."""
    out = {}
    for n in range(2):
        name = f"d-dense-{n}"
        rec = Rec()
        t = rng.randrange(10**6, 10**9)
        start = t
        xmax = ymax = 4095
        while t - start < 12_000_000:
            what = rng.choice(["drag", "pinch", "tap", "press", "nowhere"])
            if what == "drag":
                x, y = rng.randint(2300, 4000), rng.randint(200, 3800)
                rec.down(t, 0, x, y, extra=((PRESSURE, 40),))
                rec.syn(t)
                for _ in range(rng.randint(20, 120)):
                    t += rng.choice([1000, 4000, 8000])
                    x = max(0, min(xmax, x + rng.randint(-25, 25)))
                    y = max(0, min(ymax, y + rng.randint(-25, 25)))
                    rec.move(t, 0, x, y, extra=((PRESSURE, rng.randint(1, 255)),))
                    rec.syn(t)
                t += 4000
                rec.up(t, 0)
                rec.syn(t)
            elif what == "pinch":
                ax, ay, bx, by = rng.randint(100, 1800), rng.randint(100, 3900), rng.randint(100, 1800), rng.randint(100, 3900)
                rec.down(t, 0, ax, ay)
                rec.down(t, 1, bx, by)
                rec.syn(t)
                for _ in range(rng.randint(20, 80)):
                    t += rng.choice([2000, 4000, 8000])
                    ax = max(0, min(2000, ax + rng.randint(-30, 30)))
                    by = max(0, min(ymax, by + rng.randint(-30, 30)))
                    rec.move(t, 0, ax, ay)
                    rec.move(t, 1, bx, by)
                    rec.syn(t)
                t += 4000
                rec.up(t, 0)
                rec.up(t, 1)
                rec.syn(t)
            elif what in ("tap", "press"):
                x, y = rng.randint(2300, 4000), rng.randint(200, 3800)
                rec.down(t, 0, x, y)
                rec.syn(t)
                t += 40_000 if what == "tap" else 450_000
                rec.move(t, 0, x + 1, y)
                rec.syn(t)
                t += 10_000
                rec.up(t, 0)
                rec.syn(t)
            else:
                # A scene smaller than the device: this finger is on no region.
                rec.down(t, 2, 4095, 4095)
                rec.syn(t)
                for _ in range(30):
                    t += 3000
                    rec.move(t, 2, 4095 - rng.randint(0, 20), 4095 - rng.randint(0, 20))
                    rec.syn(t)
                rec.up(t, 2)
                rec.syn(t)
            t += rng.choice([5000, 60_000, 350_000])
        scene = drag_scene(1280, 800, [640.005, 0.125, 600.5, 790.25])
        # Fingers past the scene's 1200 x 780 reach no region at all.
        scene["size"] = [1280, 800]
        scene["regions"][0]["frame"] = [640.005, 0.125, 560.5, 700.25]
        scene["regions"][1]["frame"] = [0, 0, 640, 700]
        out[name] = (header(name, 0, xmax, 0, ymax, pressure=True) + rec.text(), scene)
    return out


def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    outdir = args[0]
    seed = int(args[args.index("--seed") + 1]) if "--seed" in args else 1
    randoms = int(args[args.index("--random") + 1]) if "--random" in args else 40
    rng = random.Random(seed)
    os.makedirs(outdir, exist_ok=True)
    files = {}
    files.update({k: (v, None) for k, v in time_cases(rng).items()})
    files.update({k: (v, None) for k, v in coordinate_cases(rng).items()})
    files.update(scene_cases(rng))
    files.update(random_cases(rng, randoms))
    files.update(dense_cases(rng))
    for name, (text, scene) in files.items():
        with open(os.path.join(outdir, name + ".events"), "w") as f:
            f.write(text)
        if scene is not None:
            with open(os.path.join(outdir, name + ".scene.json"), "w") as f:
                json.dump(scene, f)
    print(f"wrote {len(files)} recordings into {outdir}")


if __name__ == "__main__":
    main()
