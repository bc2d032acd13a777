#!/usr/bin/env python3
"""Random evemu recordings that stress the decoder's paths: protocol B with 1 to 64 slots (and a slot axis past 64),
protocol A, single touch; slots in and out of range (-1, 63, 64, the end of Int32), tracking ids reused, replaced
without a lift, lifted twice; every ABS code 0x00-0x3f; SYN_DROPPED, SYN_MT_REPORT, BTN_TOUCH; times that go back,
repeat, jump, sit near 0 and near the end of Int64 microseconds.

    gen.py SEED OUTDIR [live]  ->  OUTDIR/SEED.events (and OUTDIR/SEED.kind)

With `live`, for `touchd run --replay` (which plays at the recorded pace): protocol B, times from 1 s, forward
steps of at most 16 ms, backward ones of at most 8 ms, no jumps."""
import os
import random
import sys

I64 = 2**63 - 1


def stamp(us):
    sign = "-" if us < 0 else ""
    us = abs(us)
    return f"{sign}{us // 1_000_000}.{us % 1_000_000:06d}"


def main():
    seed, out = int(sys.argv[1]), sys.argv[2]
    live = len(sys.argv) > 3 and sys.argv[3] == "live"
    r = random.Random(seed)
    kind = r.choice(["B", "B", "B", "B", "A", "single", "B64", "Bbig"])
    if live:
        kind = r.choice(["B", "B64", "Bbig"])
    slots = {"B": r.choice([1, 2, 5, 10, 16]), "B64": 64, "Bbig": 200}.get(kind, 1)
    lines = ["# EVEMU 1.3", f"N: fuzz {kind}", "I: 0003 0001 0001 0001", "P: 02 00 00 00 00 00 00 00"]
    xmax, ymax = r.choice([(4095, 4095), (1, 1), (65535, 32767), (2**31 - 2, 2**31 - 2)])
    if kind == "single":
        lines += [f"A: 00 0 {xmax} 0 0 0", f"A: 01 0 {ymax} 0 0 0", "A: 18 0 255 0 0 0"]
    else:
        if kind != "A":
            lines.append(f"A: 2f 0 {slots - 1} 0 0 0")
        lines += ["A: 00 0 4095 0 0 0", "A: 01 0 4095 0 0 0"]
        if r.random() < 0.5:
            lines.append("A: 30 0 255 0 0 0")
            lines.append("A: 31 0 255 0 0 0")
        lines += [f"A: 35 0 {xmax} 0 0 0", f"A: 36 0 {ymax} 0 0 0", "A: 39 0 65535 0 0 0"]
        if r.random() < 0.5:
            lines.append("A: 3a 0 255 0 0 0")
    t = 10**6 if live else r.choice([0, 1, 10**6, 9 * 10**15, I64 - 10**7, r.randrange(10**12)])
    ids = list(range(1, 12)) + [0, 65535, 2**31 - 1]
    current = 0
    n = r.randrange(50, 1500)
    for _ in range(n):
        p = r.random()
        # time step
        q = r.random()
        if q < 0.75:
            dt = r.choice([0, 1, 1000, 8000, 16000])
        elif q < 0.8:
            dt = -r.choice([1, 1000, 8000])
        elif q < 0.805:
            dt = -r.choice([10**6, 10**9])
        elif q < 0.85:
            dt = r.choice([300_000, 600_000, 1_000_000, 5 * 10**6])
        else:
            dt = 0
        if live:
            dt = max(-8000, min(16000, dt))
        t = max(0, min(I64, t + dt))
        if r.random() < 0.003 and not live:
            t = r.choice([I64, 0, 1, I64 - 1])

        def ev(ty, code, value):
            lines.append(f"E: {stamp(t)} {ty:04x} {code:04x} {value}")

        if p < 0.18:
            ev(0, 0, 0)  # SYN_REPORT
        elif p < 0.19:
            ev(0, 3, 0)  # SYN_DROPPED
        elif p < 0.20:
            ev(0, 2, 0)  # SYN_MT_REPORT
        elif p < 0.23:
            ev(1, 0x14A, r.choice([0, 1, 1, 2]))
        elif p < 0.30:
            s = r.choice([current, r.randrange(slots), r.randrange(slots), slots - 1, slots, 63, 64, -1,
                          2**31 - 1, -2**31, r.randrange(70)])
            current = s
            ev(3, 0x2F, s)
        elif p < 0.38:
            v = r.choice(ids) if r.random() < 0.8 else -1
            if r.random() < 0.3:
                v = -1
            ev(3, 0x39, v)
        elif p < 0.93:
            code = r.choice([0x35, 0x36, 0x35, 0x36, 0x30, 0x31, 0x32, 0x33, 0x34, 0x37, 0x38, 0x3A, 0x3B,
                             0x00, 0x01, 0x18, 0x19, 0x3C, 0x3D, 0x3E, 0x3F, 0x28, 0x2E])
            v = r.choice([r.randrange(xmax + 1), r.randrange(4096), 0, -1, 2**31 - 1, -2**31, 255, 256])
            ev(3, code, v)
        else:
            ty, code = r.choice([(2, 0), (2, 1), (4, 5), (1, 0x145), (1, 0x14D), (1, 0x14E)])
            ev(ty, code, r.randrange(-5, 5))
    lines.append(f"E: {stamp(t)} 0000 0000 0")
    with open(os.path.join(out, f"{seed}.events"), "w") as f:
        f.write("\n".join(lines) + "\n")
    with open(os.path.join(out, f"{seed}.kind"), "w") as f:
        f.write(kind + "\n")


main()
