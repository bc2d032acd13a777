#!/usr/bin/env python3
"""Differential run: the same random recordings and scenes through two touchd binaries.

run.py BASE NEW FIRST_SEED COUNT OUTDIR [KIND]
Compares stdout, stderr and exit status byte for byte; reports crashes (status > 128), hangs (20 s) and
cases where NEW takes over 10x BASE's time. Differing cases are kept in OUTDIR/diff-SEED.*.
"""
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def run(binary, evemu, scene, extra):
    t = time.monotonic()
    try:
        p = subprocess.run(["timeout", "20", binary, "replay", evemu, "--scene", scene] + extra,
                           capture_output=True)
        code = p.returncode
        out, err = p.stdout, p.stderr.replace(binary.encode(), b"BIN")
    except Exception as e:  # noqa: BLE001 - any failure to run is a finding
        code, out, err = -999, b"", str(e).encode()
    return code, out, err, time.monotonic() - t


def main():
    base, new, first, count, outdir = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
    kind = sys.argv[6] if len(sys.argv) > 6 else "mixed"
    os.makedirs(outdir, exist_ok=True)
    stats = {"cases": 0, "refused": 0, "diff": 0, "crash": 0, "hang": 0, "slow": 0, "gestures": 0}
    tb = tn = 0.0
    for seed in range(first, first + count):
        subprocess.run([sys.executable, os.path.join(HERE, "gen.py"), str(seed), outdir, kind], check=True)
        ev, sc = f"{outdir}/{seed}.evemu", f"{outdir}/{seed}.json"
        extra = ["--filter", "off"] if seed % 2 else []
        b = run(base, ev, sc, extra)
        n = run(new, ev, sc, extra)
        tb += b[3]
        tn += n[3]
        stats["cases"] += 1
        if b[0] != 0:
            stats["refused"] += 1
        stats["gestures"] += b[1].count(b'"type":"gesture"')
        bad = []
        if b[:3] != n[:3]:
            stats["diff"] += 1
            bad.append("diff")
        if n[0] > 128 or n[0] == 124 or n[0] < 0:
            stats["crash" if n[0] != 124 else "hang"] += 1
            bad.append(f"new status {n[0]}")
        if b[0] > 128 or b[0] == 124:
            bad.append(f"base status {b[0]}")
        if n[3] > 10 * b[3] and n[3] > 0.2:
            stats["slow"] += 1
            bad.append(f"slow {n[3]:.2f}s vs {b[3]:.2f}s")
        if bad:
            print(f"seed {seed}: {', '.join(bad)} (status {b[0]} vs {n[0]}) {' '.join(extra)}", flush=True)
            for name, data in (("base.out", b[1]), ("new.out", n[1]), ("base.err", b[2]), ("new.err", n[2])):
                with open(f"{outdir}/diff-{seed}.{name}", "wb") as f:
                    f.write(data)
        else:
            os.remove(ev)
            os.remove(sc)
    print(stats, f"time base {tb:.1f}s new {tn:.1f}s", flush=True)


if __name__ == "__main__":
    main()
