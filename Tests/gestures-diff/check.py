#!/usr/bin/env python3
"""Checks one replay's gesture lines against documented rules (docs/scene.md, docs/protocol.md), whatever binary.

check.py SCENE.json OUTPUT.ndjson: prints each broken rule with its line; exit 1 if any.
- a gesture line names a region that has a gesture of that name and kind;
- each (region, gesture) runs pressing (long presses) -> began -> changed* -> ended | cancelled, or
  pressing -> failed; `failed` only after `pressing`, `cancelled` only after `began`; taps and swipes only `ended`;
- a tap's `ended` has the spec's taps and fingers; a swipe's direction is one the spec allows;
"""
import json
import sys


def specs(scene):
    out = {}

    def walk(regions):
        for r in regions:
            for g in r.get("gestures", []):
                g = {"type": g} if isinstance(g, str) else g
                out[(r["id"], g.get("name", g["type"]))] = g
            walk(r.get("children", []))
    walk(scene["regions"])
    return out


def main():
    scene = json.load(open(sys.argv[1]))
    table = specs(scene)
    state = {}
    problems = []
    for number, line in enumerate(open(sys.argv[2]), 1):
        e = json.loads(line)
        if e.get("type") != "gesture":
            continue
        key = (e["region"], e["gesture"])
        spec = table.get(key)
        if spec is None or spec["type"] != e["kind"]:
            problems.append(f"{number}: {key} is no {e['kind']} of that region")
            continue
        kind, s, before = e["kind"], e["state"], state.get(key, "idle")
        press = kind in ("long-press", "long-press-drag")
        allowed = {
            "pressing": before == "idle" and press,
            "began": before in (("pressing",) if press else ("idle",)) and kind not in ("tap", "swipe"),
            "changed": before in ("began", "changed"),
            "ended": before in ("began", "changed") or (before == "idle" and kind in ("tap", "swipe")),
            "cancelled": before in ("began", "changed"),
            "failed": before == "pressing",
        }[s]
        if not allowed:
            problems.append(f"{number}: {key} {s} after {before}")
        state[key] = "idle" if s in ("ended", "cancelled", "failed") else s
        if kind == "tap" and s == "ended":
            if e.get("taps") != spec.get("taps", 1) or e.get("fingers") != spec.get("fingers", 1):
                problems.append(f"{number}: {key} ended with taps {e.get('taps')} fingers {e.get('fingers')}")
        if kind == "swipe" and s == "ended" and "directions" in spec and e.get("direction") not in spec["directions"]:
            problems.append(f"{number}: {key} direction {e.get('direction')} not in {spec['directions']}")
    for p in problems[:20]:
        print(p)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
