#!/usr/bin/env python3
"""Writes config/demo/panel.evemu: a made-up 10-slot touchscreen (0..4095 both axes, 16 units/mm) doing a tap,
a double tap, a one-finger drag, a two-finger pinch out, a long press and a three-finger tap, in the canonical
form the kernel emits (ABS_MT_SLOT only on change, no repeated values). Deterministic: same bytes every run."""
import math

ABS, SYN, KEY = 3, 0, 1
SLOT, TID, PX, PY, PRESS = 0x2f, 0x39, 0x35, 0x36, 0x3a
BTN_TOUCH = 0x14a

events = []
t = 0  # microseconds
cur_slot = 0
state = {}  # slot -> {code: value}
next_tid = 100
down = set()

def emit(typ, code, value):
    events.append((t, typ, code, value))

def set_abs(slot, code, value):
    global cur_slot
    if state.setdefault(slot, {}).get(code) == value:
        return
    if slot != cur_slot:
        emit(ABS, SLOT, slot)
        cur_slot = slot
    emit(ABS, code, value)
    state[slot][code] = value

def frame(dt_ms=8):
    global t
    emit(SYN, 0, 0)
    t += dt_ms * 1000

def touch(slot, x, y, pressure=60):
    global next_tid
    was = bool(down)
    set_abs(slot, TID, next_tid); next_tid += 1
    set_abs(slot, PX, x); set_abs(slot, PY, y); set_abs(slot, PRESS, pressure)
    down.add(slot)
    if not was:
        emit(KEY, BTN_TOUCH, 1)

def move(slot, x, y):
    set_abs(slot, PX, int(x)); set_abs(slot, PY, int(y))

def lift(slot):
    set_abs(slot, TID, -1)
    state[slot].pop(TID, None)
    down.discard(slot)
    if not down:
        emit(KEY, BTN_TOUCH, 0)

def pause(ms):
    global t
    t += ms * 1000

# 1. A tap at (640, 640).
touch(0, 640, 640); frame(); move(0, 642, 641); frame(); lift(0); frame(); pause(600)
# 2. A double tap at (3400, 700).
for _ in range(2):
    touch(0, 3400, 700); frame(); lift(0); frame(70)
pause(600)
# 3. A one-finger drag from (800, 2400) to (2000, 2400) over 400 ms.
touch(0, 800, 2400); frame()
for i in range(1, 51):
    move(0, 800 + 24 * i, 2400 + 20 * math.sin(i / 8)); frame()
lift(0); frame(); pause(500)
# 4. A two-finger pinch out around (3000, 2500): 300 apart to 1100 apart.
touch(0, 2850, 2500); touch(1, 3150, 2500); frame()
for i in range(1, 41):
    half = 150 + 10 * i
    move(0, 3000 - half, 2500 - i); move(1, 3000 + half, 2500 + i); frame()
lift(0); lift(1); frame(); pause(500)
# 5. A long press at (1000, 3500): 900 ms with a little jitter.
touch(0, 1000, 3500); frame()
for i in range(1, 19):
    move(0, 1000 + (i % 3), 3500 + (i % 2)); frame(50)
lift(0); frame(); pause(500)
# 6. A three-finger tap around (3000, 3600).
touch(0, 2700, 3600); touch(1, 3000, 3550); touch(2, 3300, 3600); frame(); frame(40)
lift(0); lift(1); lift(2); frame()

hdr = """# EVEMU 1.3
# touchd demo: a made-up 10-slot touchscreen (written by scripts/make-demo-recording.py)
# Input device name: "touchd demo panel"
N: touchd demo panel
I: 0003 1d6b 7a01 0001
P: 02 00 00 00 00 00 00 00
B: 00 0b 00 00 00 00 00 00 00
"""
key = [0] * 96
key[BTN_TOUCH // 8] |= 1 << (BTN_TOUCH % 8)
lines = [hdr.rstrip("\n")]
for i in range(12):
    lines.append("B: 01 " + " ".join("%02x" % b for b in key[i * 8:i * 8 + 8]))
lines.append("B: 02 00 00 00 00 00 00 00 00")
absmask = [0] * 8
for c in (0, 1, SLOT, PX, PY, TID, PRESS):
    absmask[c // 8] |= 1 << (c % 8)
lines.append("B: 03 " + " ".join("%02x" % b for b in absmask))
for ty in ("04", "05", "11", "12", "14"):
    lines.append("B: %s 00 00 00 00 00 00 00 00" % ty)
lines += ["B: 15 00 00 00 00 00 00 00 00"] * 2
lines += ["A: 00 0 4095 0 0 16", "A: 01 0 4095 0 0 16", "A: 2f 0 9 0 0 0", "A: 35 0 4095 0 0 16",
          "A: 36 0 4095 0 0 16", "A: 39 0 65535 0 0 0", "A: 3a 0 255 0 0 0"]
for (tm, ty, code, value) in events:
    lines.append("E: %d.%06d %04x %04x %04d" % (tm // 1000000, tm % 1000000, ty, code, value))
open("config/demo/panel.evemu", "w").write("\n".join(lines) + "\n")
print(len(events), "events")
