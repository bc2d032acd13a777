#!/usr/bin/env python3
"""Random but valid scenes and evemu recordings that stress touchd's gesture layer.

gen.py SEED OUTDIR [KIND] writes OUTDIR/SEED.json (scene) and OUTDIR/SEED.evemu (recording).
KIND: mixed (default), taps, multi, holds, nested, swipes, pinch, cancels, times, big, deep, latetap, seq.
The device is 4096x4096 mapped to a 1024x1024 scene: 4 device units a scene unit.
"""
import json
import random
import sys

SCENE = 1024
DEV = 4096
UNIT = DEV // SCENE
GESTURE_TYPES = ["tap", "long-press", "long-press-drag", "drag", "swipe", "pinch", "rotate"]
NEAR_MS = [0, 1, 16, 100, 250, 299, 300, 301, 450, 499, 500, 501, 520, 700, 1000, 2000]


class Ids:
    def __init__(self):
        self.n = 0

    def next(self, prefix):
        self.n += 1
        return f"{prefix}{self.n}"


def gesture(rng, used_names):
    t = rng.choice(GESTURE_TYPES + ["tap", "tap", "tap"])
    g = {"type": t}
    if t == "tap":
        if rng.random() < 0.6:
            g["taps"] = rng.choice([1, 1, 2, 2, 3])
        if rng.random() < 0.3:
            g["fingers"] = rng.choice([1, 2, 3, 4, 5])
        if rng.random() < 0.3:
            g["durationMs"] = rng.choice([50, 200, 300, 500, 800])
        if rng.random() < 0.2:
            g["allowableMovement"] = rng.choice([0, 5, 10, 30])
        if rng.random() < 0.3:
            g["tapIntervalMs"] = rng.choice([100, 200, 300, 600])
    elif t in ("long-press", "long-press-drag"):
        if rng.random() < 0.3:
            g["fingers"] = rng.choice([1, 2, 3])
        if rng.random() < 0.4:
            g["durationMs"] = rng.choice([0, 100, 300, 500, 1000])
        if rng.random() < 0.2:
            g["allowableMovement"] = rng.choice([0, 5, 10, 30])
    elif t == "drag":
        if rng.random() < 0.3:
            g["fingers"] = rng.choice([1, 2, 3])
        if rng.random() < 0.3:
            g["minimumDistance"] = rng.choice([0, 5, 10, 40])
    elif t == "swipe":
        if rng.random() < 0.3:
            g["fingers"] = rng.choice([1, 2, 3])
        if rng.random() < 0.3:
            g["minimumDistance"] = rng.choice([10, 50, 100])
        if rng.random() < 0.3:
            g["durationMs"] = rng.choice([100, 300, 500, 1000])
        if rng.random() < 0.3:
            g["directions"] = rng.sample(["left", "right", "up", "down"], rng.randint(1, 3))
    elif t == "pinch":
        if rng.random() < 0.3:
            g["allowableMovement"] = rng.choice([0, 5, 10, 30])
    name = t
    k = 2
    while name in used_names:
        name = f"{t}{k}"
        k += 1
    used_names.add(name)
    if name != t:
        g["name"] = name
    if rng.random() < 0.1:
        g["priority"] = "high"
    if rng.random() < 0.1:
        g["takeFingers"] = rng.choice(["never", "recognized", "all-down"])
    return g


def region(rng, ids, depth, maxdepth, w, h, order, ngest=(0, 4)):
    rw = rng.randint(max(1, w // 4), max(1, w))
    rh = rng.randint(max(1, h // 4), max(1, h))
    x = rng.randint(0, max(0, w - rw))
    y = rng.randint(0, max(0, h - rh))
    r = {"id": ids.next("r"), "frame": [x, y, rw, rh]}
    names = set()
    gs = [gesture(rng, names) for _ in range(rng.randint(*ngest))]
    if gs:
        r["gestures"] = gs
    gnames = [g.get("name", g["type"]) for g in gs]
    for g in gs:
        order.append((r["id"], g.get("name", g["type"]), g))
    if len(gnames) >= 2 and rng.random() < 0.3:
        # one to three groups of two or more of its names (a group's names may be other regions' names too)
        r["simultaneous"] = [rng.sample(gnames, rng.randint(2, min(4, len(gnames)))) for _ in range(rng.randint(1, 3))]
    if len(gnames) >= 2 and rng.random() < 0.3:
        shuffled = rng.sample(gnames, len(gnames))
        r["sequenced"] = [shuffled[:2]] if len(shuffled) < 4 or rng.random() < 0.5 else [shuffled[:2], shuffled[2:4]]
    if rng.random() < 0.15:
        r["intercept"] = {"slop": rng.choice([0, 5, 10, 30]), "delayMs": rng.choice([0, 0, 150, 500])}
    if rng.random() < 0.05:
        r["raw"] = False
    if rng.random() < 0.05:
        r["passthrough"] = True
    if rng.random() < 0.1:
        r["z"] = rng.randint(-2, 2)
    if rng.random() < 0.05:
        r["draggable"] = True
    if rng.random() < 0.1:
        r["clipsChildren"] = False
    if depth < maxdepth and rng.random() < 0.6:
        r["children"] = [
            region(rng, ids, depth + 1, maxdepth, rw, rh, order, ngest) for _ in range(rng.randint(1, 3))
        ]
    return r


def add_requires(rng, order, p=0.25):
    # references only to gestures earlier in `order`: requireToFail alone makes no cycle
    for i, (rid, name, g) in enumerate(order):
        if i == 0 or rng.random() > p:
            continue
        refs = set()
        for _ in range(rng.randint(1, 3)):
            orid, oname, _ = order[rng.randrange(0, i)]
            refs.add(oname if orid == rid else f"{orid}/{oname}")
        g["requireToFail"] = sorted(refs)


def drop_cycles(scene):
    """Drops the requireToFail references that would close a circle with the waits touchd adds itself (a tap waits
    for the taps of more taps with the same fingers on its region; every gesture waits for its ancestors'
    high-priority ones), so that few scenes are refused."""
    nodes = []  # (region, ancestors)

    def walk(regions, ancestors):
        for r in regions:
            nodes.append((r, ancestors))
            walk(r.get("children", []), ancestors + [r])
    walk(scene["regions"], [])
    edges = {}

    def key(r, g):
        return (r["id"], g.get("name", g["type"]))
    for r, ancestors in nodes:
        gs = r.get("gestures", [])
        for g in gs:
            e = edges.setdefault(key(r, g), set())
            if g["type"] == "tap":
                for o in gs:
                    if o["type"] == "tap" and o.get("fingers", 1) == g.get("fingers", 1) and \
                            o.get("taps", 1) > g.get("taps", 1):
                        e.add(key(r, o))
            for a in ancestors:
                for o in a.get("gestures", []):
                    if o.get("priority") == "high":
                        e.add(key(a, o))

    def reaches(src, dst):
        seen, todo = set(), [src]
        while todo:
            n = todo.pop()
            if n == dst:
                return True
            if n in seen:
                continue
            seen.add(n)
            todo += edges.get(n, ())
        return False
    for r, _ in nodes:
        for g in r.get("gestures", []):
            refs = g.pop("requireToFail", None)
            if not refs:
                continue
            kept = []
            for ref in refs:
                rid, _, name = ref.rpartition("/")
                target = (rid or r["id"], name)
                if target == key(r, g) or reaches(target, key(r, g)):
                    continue
                edges[key(r, g)].add(target)
                kept.append(ref)
            if kept:
                g["requireToFail"] = kept


def make_scene(rng, kind):
    scene = make_scene_raw(rng, kind)
    drop_cycles(scene)
    return scene


def make_scene_raw(rng, kind):
    ids = Ids()
    order = []
    if kind == "deep":
        root = None
        cur = None
        for d in range(rng.randint(8, 32)):
            names = set()
            r = {"id": ids.next("d"), "frame": [1, 1, SCENE - 2 - 2 * d, SCENE - 2 - 2 * d],
                 "gestures": [gesture(rng, names) for _ in range(rng.randint(1, 3))]}
            for g in r["gestures"]:
                order.append((r["id"], g.get("name", g["type"]), g))
            if root is None:
                root = r
            else:
                cur["children"] = [r]
            cur = r
        add_requires(rng, order, 0.3)
        return {"version": 1, "size": [SCENE, SCENE], "regions": [root]}
    if kind in ("latetap", "seq"):
        # one parent with a child: taps of 1 to 3 (one or two fingers), presses, drags, chained and waiting
        def gs(rid, n):
            names = set()
            out = []
            for _ in range(n):
                g = gesture(rng, names)
                if kind == "latetap" and rng.random() < 0.6:
                    g = {"type": "tap", "taps": rng.choice([1, 2, 3]), "fingers": rng.choice([1, 1, 2])}
                    nm = "tap"
                    k = 2
                    while nm in names:
                        nm = f"tap{k}"
                        k += 1
                    names.add(nm)
                    if nm != "tap":
                        g["name"] = nm
                    if rng.random() < 0.1:
                        g["priority"] = "high"
                out.append(g)
                order.append((rid, g.get("name", g["type"]), g))
            return out
        child = {"id": "child", "frame": [256, 256, 512, 512], "gestures": gs("child", rng.randint(1, 6))}
        parent = {"id": "parent", "frame": [0, 0, SCENE, SCENE], "gestures": gs("parent", rng.randint(1, 6)),
                  "children": [child]}
        for r in (parent, child):
            names = [g.get("name", g["type"]) for g in r["gestures"]]
            if len(names) >= 2 and rng.random() < (0.7 if kind == "seq" else 0.2):
                r["sequenced"] = [rng.sample(names, min(len(names), rng.randint(2, 3)))]
            if len(names) >= 2 and rng.random() < 0.3:
                r["simultaneous"] = [rng.sample(names, 2)]
        if rng.random() < 0.3:
            parent["intercept"] = {"slop": rng.choice([5, 10, 30]), "delayMs": rng.choice([0, 150])}
        add_requires(rng, order, 0.15)
        return {"version": 1, "size": [SCENE, SCENE], "regions": [parent]}
    if kind == "big":
        names = set()
        gs = []
        for i in range(rng.randint(64, 256)):
            g = gesture(rng, names)
            gs.append(g)
            order.append(("big", g.get("name", g["type"]), g))
        add_requires(rng, order, 0.3)
        return {"version": 1, "size": [SCENE, SCENE],
                "regions": [{"id": "big", "frame": [0, 0, SCENE, SCENE], "gestures": gs}]}
    maxdepth = 3 if kind == "nested" else rng.randint(0, 2)
    regions = [region(rng, ids, 0, maxdepth, SCENE, SCENE, order, (1, 4) if kind != "mixed" else (0, 4))
               for _ in range(rng.randint(1, 4))]
    add_requires(rng, order)
    return {"version": 1, "size": [SCENE, SCENE], "regions": regions}


# ---- recordings ----

def header(slots):
    return f"""# EVEMU 1.3
N: gestures-diff panel
I: 0003 1d6b 7a01 0001
P: 02 00 00 00 00 00 00 00
B: 00 0b 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 04 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 02 00 00 00 00 00 00 00 00
B: 03 03 00 00 00 00 80 60 02
B: 04 00 00 00 00 00 00 00 00
B: 05 00 00 00 00 00 00 00 00
B: 11 00 00 00 00 00 00 00 00
B: 12 00 00 00 00 00 00 00 00
B: 14 00 00 00 00 00 00 00 00
B: 15 00 00 00 00 00 00 00 00
B: 15 00 00 00 00 00 00 00 00
A: 00 0 {DEV - 1} 0 0 0
A: 01 0 {DEV - 1} 0 0 0
A: 2f 0 {slots - 1} 0 0 0
A: 35 0 {DEV - 1} 0 0 0
A: 36 0 {DEV - 1} 0 0 0
A: 39 0 65535 0 0 0
"""


def dur(rng):
    """A duration in microseconds, often near a gesture threshold."""
    if rng.random() < 0.7:
        return max(0, rng.choice(NEAR_MS) * 1000 + rng.choice([-1000, -1, 0, 0, 0, 1, 1000]))
    return rng.randint(0, 1500) * 1000


def clamp(v):
    return max(0, min(DEV - 1, int(v)))


class Finger:
    """A finger: down at t0 at p, then a path of (t, x, y), up at t1 (None: left down)."""

    def __init__(self, t0, x, y):
        self.path = [(t0, x, y)]
        self.up = None
        self.reuse = False  # the up is replaced by a new tracking id on the same slot


def finger_path(rng, f, t, x, y, motion, total):
    steps = rng.randint(0, 8)
    if steps == 0:
        return t
    for i in range(steps):
        t += max(0, total // steps)
        if motion == "still":
            dx, dy = rng.choice([0, 0, 1, -1]), rng.choice([0, 0, 1, -1])
        elif motion == "slop":
            d = rng.choice([9, 10, 11, 5, 30]) * UNIT
            dx, dy = d * (i + 1) // steps * rng.choice([1, -1]), 0
            if rng.random() < 0.5:
                dx, dy = dy, dx
            x1, y1 = f.path[0][1] + dx, f.path[0][2] + dy
            f.path.append((t, clamp(x1), clamp(y1)))
            continue
        elif motion == "line":
            dx, dy = motion_vec
        else:
            dx, dy = rng.randint(-200, 200), rng.randint(-200, 200)
        x, y = clamp(x + dx), clamp(y + dy)
        f.path.append((t, x, y))
    return t


motion_vec = (0, 0)


def rects(regions, ox=0, oy=0):
    out = []
    for r in regions:
        x, y, w, h = r["frame"]
        if "gestures" in r:
            out.append((ox + x, oy + y, w, h))
        out += rects(r.get("children", []), ox + x, oy + y)
    return out


def touch_train(rng, slots):
    """Short touches one after another: taps near the limits of duration, interval and distance, some overlapping."""
    fingers = []
    t = 0
    x, y = rng.randint(1100, 3000), rng.randint(1100, 3000)
    for _ in range(rng.randint(2, 12)):
        n = rng.choice([1, 1, 1, 2, 2, 3])
        hold = rng.choice([0, 1, 16000, 50000, 100000, 200000, 299000, 300000, 499000, 500000, 501000])
        if rng.random() < 0.2:
            hold = dur(rng)
        jump = rng.choice([0, 0, 4, 30, 99, 101, 150, 400]) * UNIT
        ang = rng.random() * 6.283
        import math
        x, y = clamp(x + jump * math.cos(ang)), clamp(y + jump * math.sin(ang))
        for k in range(n):
            start = t + rng.choice([0, 0, 1, 5000, 30000])
            f = Finger(start, clamp(x + 40 * k), y)
            if rng.random() < 0.3:
                d = rng.choice([5, 9, 10, 11, 20, 60]) * UNIT
                f.path.append((start + hold // 2, clamp(x + 40 * k + d), y))
            f.up = start + hold + rng.choice([0, 0, 1, 2000])
            if rng.random() < 0.01:
                f.up = None
            fingers.append(f)
        gap = rng.choice([0, 1000, 100000, 250000, 299000, 300000, 301000, 350000, 600000])
        if rng.random() < 0.15:
            gap = -hold // 2  # the next touch lands while this one is down
        t = t + hold + gap
    return fingers


def make_fingers(rng, kind, slots, targets):
    global motion_vec
    if kind in ("latetap", "seq") and rng.random() < 0.8:
        return touch_train(rng, slots)
    fingers = []
    t = 0
    groups = rng.randint(1, 6)
    for _ in range(groups):
        n = {"multi": rng.randint(2, 5), "pinch": 2, "taps": rng.choice([1, 1, 2]),
             "big": rng.randint(1, 10)}.get(kind, rng.choice([1, 1, 1, 2, 2, 3, 4, 5]))
        n = min(n, slots)
        cx, cy = rng.randint(0, DEV - 1), rng.randint(0, DEV - 1)
        if targets and rng.random() < 0.9:
            x, y, w, h = rng.choice(targets)
            cx, cy = clamp((x + rng.random() * w) * UNIT), clamp((y + rng.random() * h) * UNIT)
        spread = rng.choice([0, 20, 100, 300])
        repeats = rng.choice([1, 1, 2, 3]) if kind in ("taps", "mixed", "nested", "deep", "big") else 1
        for _ in range(repeats):
            motion = {"holds": rng.choice(["still", "slop", "wild"]), "swipes": "line",
                      "pinch": "wild"}.get(kind, rng.choice(["still", "still", "slop", "line", "wild"]))
            angle_dx, angle_dy = rng.choice([(60, 0), (-60, 0), (0, 60), (0, -60), (50, 30), (5, 80),
                                             (rng.randint(-40, 40), rng.randint(-40, 40))])
            total = dur(rng)
            group = []
            for k in range(n):
                start = t + (0 if rng.random() < 0.5 else rng.choice([0, 1, 1000, 16000, 60000, 200000]))
                x = clamp(cx + rng.randint(-spread, spread))
                y = clamp(cy + rng.randint(-spread, spread))
                f = Finger(start, x, y)
                motion_vec = (angle_dx, angle_dy) if kind != "pinch" else (
                    (30 if k == 0 else -30), (rng.randint(-30, 30)))
                end = finger_path(rng, f, start, x, y, motion, total)
                end += rng.choice([0, 0, 1, 1000, 16000, 100000]) if rng.random() < 0.5 else 0
                r = rng.random()
                if kind == "cancels" and r < 0.3:
                    f.up = None
                elif kind == "cancels" and r < 0.5:
                    f.reuse = True
                    f.up = end
                elif r < 0.04:
                    f.up = None
                else:
                    f.up = end
                group.append(f)
            fingers += group
            ends = [f.up if f.up is not None else f.path[-1][0] for f in group]
            t = max(ends) + dur(rng)
        t += dur(rng) * rng.choice([0, 1, 3])
    return fingers


def t_end(frames):
    return frames[-1][0] if frames else 0


def render(rng, kind, fingers, slots):
    """Frames from fingers; slot allocation as a kernel does (lowest free)."""
    # events per time: (t, order, finger index, action, x, y)
    evs = []
    for i, f in enumerate(fingers):
        t0, x0, y0 = f.path[0]
        evs.append((t0, 1, i, "down", x0, y0))
        for (t, x, y) in f.path[1:]:
            evs.append((t, 2, i, "move", x, y))
        if f.up is not None:
            evs.append((f.up, 3, i, "up", 0, 0))
    evs.sort(key=lambda e: (e[0], e[1], e[2]))
    frames = []
    for e in evs:
        if frames and frames[-1][0] == e[0]:
            frames[-1][1].append(e)
        else:
            frames.append((e[0], [e]))
    # time mapping
    offset = 0
    if kind == "times":
        offset = rng.choice([0, 1, 999, 9_000_000_000_000_000, 4_000_000_000_000_000, 1_700_000_000_000_000,
                             9_223_372_036_854_000_000 - t_end(frames), 9_223_372_036_000_000_000 - t_end(frames)])
    lines = []
    slot_of = {}
    free = list(range(slots))
    tid = rng.randint(0, 60000)
    cur_slot = None
    jump = 0
    for (t, es) in frames:
        if kind == "times" and rng.random() < 0.1:
            jump += rng.choice([0, 10 ** 6, 10 ** 9, 10 ** 12, -50000])
        tt = t + offset + jump
        if tt < 0:
            tt = 0
        tt = min(tt, 9_223_372_036_854_775_807)
        stamp = f"{tt // 1000000}.{tt % 1000000:06d}"
        out = []
        for (_, _, i, a, x, y) in es:
            if a == "down":
                if not free:
                    continue
                s = free.pop(0)
                slot_of[i] = s
                if cur_slot != s:
                    out.append(f"E: {stamp} 0003 002f {s:04d}")
                    cur_slot = s
                tid = (tid + 1) % 65536
                out.append(f"E: {stamp} 0003 0039 {tid:04d}")
                out.append(f"E: {stamp} 0003 0035 {x:04d}")
                out.append(f"E: {stamp} 0003 0036 {y:04d}")
            elif i in slot_of:
                s = slot_of[i]
                if cur_slot != s:
                    out.append(f"E: {stamp} 0003 002f {s:04d}")
                    cur_slot = s
                if a == "move":
                    out.append(f"E: {stamp} 0003 0035 {x:04d}")
                    out.append(f"E: {stamp} 0003 0036 {y:04d}")
                elif fingers[i].reuse:
                    # a new tracking id without a -1: the old touch ends, a new one starts in the slot
                    tid = (tid + 1) % 65536
                    out.append(f"E: {stamp} 0003 0039 {tid:04d}")
                    del slot_of[i]
                    # the slot stays in use by an anonymous finger that never lifts
                else:
                    out.append(f"E: {stamp} 0003 0039 -001")
                    del slot_of[i]
                    free.append(s)
                    free.sort()
        if not out:
            continue
        down = 1 if slot_of or len(free) < slots else 0
        out.append(f"E: {stamp} 0001 014a {down:04d}")
        out.append(f"E: {stamp} 0000 0000 0000")
        lines += out
    return lines


def main():
    seed = int(sys.argv[1])
    outdir = sys.argv[2]
    kind = sys.argv[3] if len(sys.argv) > 3 else "mixed"
    rng = random.Random(seed)
    if kind == "mixed":
        kind = rng.choice(["taps", "multi", "holds", "nested", "swipes", "pinch", "cancels", "times", "mixed2"])
    scene = make_scene(rng, kind)
    slots = 10
    fingers = make_fingers(rng, kind, slots, rects(scene["regions"]))
    lines = render(rng, kind, fingers, slots)
    with open(f"{outdir}/{seed}.json", "w") as f:
        json.dump(scene, f)
    with open(f"{outdir}/{seed}.evemu", "w") as f:
        f.write(header(slots))
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
