#!/usr/bin/env python3
"""touchd replay --html, checked in headless Chromium (scripts/html-test.sh runs this; standard library only).

The page is made from the Nexus 4 recording (xorg-integration-tests/touchscreens/n4.events) through a scene of
four quadrants at half the panel's size (Tests/html/quadrants-half.json: 768 x 1280, so the page fits a window).
What the page must show at a time is known independently of it: the recording's first event time comes from the
file itself, every finger's position and region with its time from `touchd replay --scene` (NDJSON), the
region colours from the palette `touchd replay --svg` uses in scene order, and the page draws scene point (x, y)
at pixel (x, y).

Two screenshots, at #t=2.45 (two fingers down, in top-left and top-right) and #t=4.5 (three: top-right,
bottom-left, top-left). In each:
- at every live finger's position the pixel is its region's colour (the finger's mark);
- a region holding a live finger is shaded at opacity 0.6 over white, the others at 0.25, sampled at a point
  of the region away from every path, mark and label drawn by then;
- where the fingers of the other time are, away from anything drawn now, there is only the region's shading.
Also: the same input gives the same bytes, the page names nothing on the network, and a page whose regions
are named "constructor", "__proto__" and markup plays and runs none of it.
"""

import json
import math
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOUCHD = os.path.join(ROOT, ".build/debug/touchd")
RECORDINGS = os.environ.get("TOUCHD_RECORDINGS", os.path.join(os.path.dirname(ROOT), "shared/recordings"))
RECORDING = os.path.join(RECORDINGS, "xorg-integration-tests/touchscreens/n4.events")
SCENE = os.path.join(ROOT, "Tests/html/quadrants-half.json")
PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd"]
IDLE, TOUCHED = 0.25, 0.6
TIMES = [2.45, 4.5]

failures = []


def check(condition, what):
    print(("ok    " if condition else "FAIL  ") + what)
    if not condition:
        failures.append(what)


def read_png(path):
    """(width, height, rows of (r, g, b)) of an 8-bit RGB or RGBA PNG, without a library."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    position, chunks = 8, {}
    idat = b""
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position : position + 8])
        body = data[position + 8 : position + 8 + length]
        position += 12 + length
        if kind == b"IHDR":
            width, height, depth, colour_type, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and colour_type in (2, 6) and interlace == 0, "unexpected PNG format"
            chunks["channels"] = 3 if colour_type == 2 else 4
        elif kind == b"IDAT":
            idat += body
    channels = chunks["channels"]
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        rows.append([tuple(line[x * channels : x * channels + 3]) for x in range(width)])
        previous = line
    return width, height, rows


def rgb(hex_colour):
    return tuple(int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))


def blend(colour, opacity):
    return tuple(round(255 * (1 - opacity) + c * opacity) for c in colour)


def near(a, b, tolerance=3):
    return all(abs(x - y) <= tolerance for x, y in zip(a, b))


def first_event_seconds():
    """Time 0 of the page: the recording's first event, read from the file itself."""
    for line in open(RECORDING):
        if line.startswith("E: "):
            return float(line.split()[1])
    raise RuntimeError("no event in " + RECORDING)


def replay_events():
    output = subprocess.run(
        [TOUCHD, "replay", RECORDING, "--scene", SCENE, "--quiet"], check=True, capture_output=True, text=True
    ).stdout
    base = first_event_seconds()
    events = [json.loads(line) for line in output.splitlines()]
    return [dict(e, t=e["time_us"] / 1e6 - base) for e in events if e["type"] != "frame"]


def drawn_at(events, t):
    """Live fingers {finger: (x, y, region)}, every path point drawn so far, and the ended gestures' anchors."""
    live, points, anchors = {}, [], []
    for e in events:
        if e["t"] > t:
            break
        if e["type"] in ("down", "move", "up", "cancel"):
            points.append((e["finger"], e["x"], e["y"]))
        if e["type"] in ("down", "move"):
            live[e["finger"]] = (e["x"], e["y"], e["region"])
        elif e["type"] in ("up", "cancel"):
            live.pop(e["finger"], None)
        elif e["type"] == "gesture" and e["state"] == "ended":
            anchors.append((e["x"], e["y"]))
    return live, points, anchors


def segment_distance(px, py, ax, ay, bx, by):
    dx, dy = bx - ax, by - ay
    length = dx * dx + dy * dy
    s = 0 if length == 0 else max(0, min(1, ((px - ax) * dx + (py - ay) * dy) / length))
    return math.hypot(px - ax - s * dx, py - ay - s * dy)


def clear_of_drawing(x, y, points, anchors, margin=16):
    by_finger = {}
    for finger, fx, fy in points:
        by_finger.setdefault(finger, []).append((fx, fy))
    for path in by_finger.values():
        for (ax, ay), (bx, by) in zip(path, path[1:] or path):
            if segment_distance(x, y, ax, ay, bx, by) < margin:
                return False
    # A gesture's label: bold text from (x + 8, y - 8) up and to the right.
    return all(not (ax - 4 <= x <= ax + 120 and ay - 40 <= y <= ay + 4) for ax, ay in anchors)


def main():
    if not os.path.exists(RECORDING):
        # A user's checkout may lack the shared recordings; CI always has them, so there a skip is a failure.
        print("html-test: skipped: %s is missing (set TOUCHD_RECORDINGS)" % RECORDING)
        return 1 if os.environ.get("CI") else 0
    if not shutil.which("chromium"):
        print("html-test: chromium is missing (scripts/html-test.sh installs it)")
        return 1
    scene = json.load(open(SCENE))
    width, height = scene["size"]
    regions = [(r["id"], r["frame"], rgb(PALETTE[i])) for i, r in enumerate(scene["regions"])]
    events = replay_events()
    directory = tempfile.mkdtemp(prefix="touchd-html-test-")
    page = os.path.join(directory, "replay.html")
    again = os.path.join(directory, "again.html")
    for path in (page, again):
        subprocess.run([TOUCHD, "replay", RECORDING, "--scene", SCENE, "--html", path, "--quiet"], check=True,
                       stdout=subprocess.DEVNULL)
    html = open(page, encoding="utf-8").read()
    check(open(page, "rb").read() == open(again, "rb").read(), "the same input gives the same bytes")
    outside = re.findall(r"(?:https?:)?//[a-z0-9.-]+\.[a-z]{2,}[^\"' )]*", html)
    check(set(outside) <= {"http://www.w3.org/2000/svg"}, "no address but the SVG namespace: %s" % sorted(set(outside)))
    check(not re.search(r"\b(src|href)\s*=", html), "no src or href attribute: nothing is loaded")

    # Hostile region ids: a page must still play (the clock shows the time asked for) and run nothing of theirs.
    # An id that names a property of every JavaScript object ("constructor", "__proto__") once stopped the player.
    hostile = dict(scene)
    names = ["constructor", "__proto__", "</script><script>document.title='pwned'</script>", "\"><b id=pwned>"]
    hostile["regions"] = [dict(r, id=names[i]) for i, r in enumerate(scene["regions"])]
    hostile_scene = os.path.join(directory, "hostile.json")
    json.dump(hostile, open(hostile_scene, "w"))
    hostile_page = os.path.join(directory, "hostile.html")
    subprocess.run([TOUCHD, "replay", RECORDING, "--scene", hostile_scene, "--html", hostile_page, "--quiet"],
                   check=True, stdout=subprocess.DEVNULL)
    dom = subprocess.run(
        ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", "file://%s#t=2.45" % hostile_page],
        check=True, capture_output=True, timeout=120, text=True).stdout
    clock = re.search(r'<span id="clock">([^<]*)</span>', dom)
    check(clock is not None and clock.group(1).startswith("2.450 s / "),
          "regions named %s: the page plays (clock %r)" % (names[:2], clock and clock.group(1)))
    check('<b id="pwned">' not in dom and "<title>touchd replay</title>" in dom,
          "hostile region ids run and add nothing")

    states = {t: drawn_at(events, t) for t in TIMES}
    for t in TIMES:
        shot = os.path.join(directory, "t%s.png" % t)
        subprocess.run(
            ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
             "--force-device-scale-factor=1", "--window-size=%d,%d" % (width, height + 120),
             "--screenshot=" + shot, "file://%s#t=%s" % (page, t)],
            check=True, capture_output=True, timeout=120)
        _, _, pixels = read_png(shot)
        live, points, anchors = states[t]
        touched = {region for _, _, region in live.values()}
        check(len(live) > 0, "t=%s: the recording has %d finger(s) down" % (t, len(live)))
        for finger, (x, y, region) in sorted(live.items()):
            colour = next(c for rid, _, c in regions if rid == region)
            got = pixels[round(y)][round(x)]
            check(near(got, colour), "t=%s: finger %d's mark at (%d, %d) is %s's colour %s: %s" % (
                t, finger, round(x), round(y), region, colour, got))
        for region_id, (rx, ry, rw, rh), colour in regions:
            sample = next(
                ((x, y) for y in range(int(ry) + 30, int(ry + rh) - 10, 7) for x in range(int(rx) + 10, int(rx + rw) - 10, 7)
                 if clear_of_drawing(x, y, points, anchors)
                 and all(math.hypot(x - fx, y - fy) > 20 for fx, fy, _ in live.values())), None)
            if sample is None:
                check(False, "t=%s: no clear point in %s to sample" % (t, region_id))
                continue
            want = blend(colour, TOUCHED if region_id in touched else IDLE)
            got = pixels[sample[1]][sample[0]]
            check(near(got, want), "t=%s: %s %s at %s: %s, expected %s" % (
                t, region_id, "highlighted" if region_id in touched else "not highlighted", sample, got, want))
        other = TIMES[1 - TIMES.index(t)]
        for finger, (x, y, region) in sorted(states[other][0].items()):
            if finger in live or not clear_of_drawing(x, y, points, anchors):
                continue
            inside = next((rid, c) for rid, (rx, ry, rw, rh), c in regions if rx <= x < rx + rw and ry <= y < ry + rh)
            want = blend(inside[1], TOUCHED if inside[0] in touched else IDLE)
            got = pixels[round(y)][round(x)]
            check(near(got, want), "t=%s: no mark where finger %d is at t=%s (%d, %d): %s" % (
                t, finger, other, round(x), round(y), got))
    if failures:
        print("html-test: screenshots kept in " + directory)
    else:
        shutil.rmtree(directory, ignore_errors=True)
    print("html-test: %d failure(s)" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
