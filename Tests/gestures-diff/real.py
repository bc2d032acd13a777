#!/usr/bin/env python3
"""Real recordings through random gesture scenes, in two touchd binaries.

real.py OLD NEW SEED SCENES_PER_FILE [RECORDINGS_DIR] (default: $TOUCHD_RECORDINGS, else ../shared/recordings beside the checkout): every recording under 3 MB
replays with SCENES_PER_FILE random scenes (gen.py's kinds); stdout, stderr and status must be the same. Differing
scenes are kept as ./diff-FILE_NUMBER-K.json.
"""
import json
import os
import random
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen  # noqa: E402

KINDS = ["mixed2", "nested", "big", "seq", "latetap", "deep", "multi", "pinch", "swipes"]


def main():
    old, new, seed, per_file = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    here = os.path.dirname(os.path.abspath(__file__))
    default = os.environ.get("TOUCHD_RECORDINGS", os.path.join(here, "..", "..", "..", "shared", "recordings"))
    top = sys.argv[5] if len(sys.argv) > 5 else default
    files = sorted(
        os.path.join(root, name)
        for root, _, names in os.walk(top)
        for name in names
        if not name.endswith((".md", ".desc", ".prop", ".device", ".txt"))
        and os.path.getsize(os.path.join(root, name)) < 3_000_000)
    rng = random.Random(seed)
    stats = dict(runs=0, replayed=0, diff=0, crash=0, gestures=0)
    scene_path = f"/tmp/real-diff-{os.getpid()}.json"
    for number, path in enumerate(files):
        for k in range(per_file):
            kind = rng.choice(KINDS)
            with open(scene_path, "w") as f:
                json.dump(gen.make_scene(rng, kind), f)
            outs = []
            for binary in (old, new):
                p = subprocess.run(["timeout", "30", binary, "replay", path, "--scene", scene_path], capture_output=True)
                outs.append((p.returncode, p.stdout, p.stderr.replace(binary.encode(), b"BIN")))
            stats["runs"] += 1
            stats["replayed"] += outs[0][0] == 0
            stats["gestures"] += outs[0][1].count(b'"type":"gesture"')
            if outs[0] != outs[1]:
                stats["diff"] += 1
                print("DIFF", path, kind, outs[0][0], outs[1][0], flush=True)
                shutil.copy(scene_path, f"diff-{number}-{k}.json")
            if outs[1][0] > 128 or outs[1][0] == 124:
                stats["crash"] += 1
                print("CRASH/HANG", path, outs[1][0], flush=True)
    os.remove(scene_path)
    print(stats)


if __name__ == "__main__":
    main()
