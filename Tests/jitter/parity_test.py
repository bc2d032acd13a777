#!/usr/bin/env python3
"""jitter_measure.py --require-parity: the check the live jitter run (scripts/jitter-measure.sh --live) rests on.

Rows are made up here, as `measure` gives them (jitter, still frames, wiggle, lag, fast frames): the still frames
and fast frames come from the reference stream alone, so touchd and libinput have samples in the same places unless
one of them lost its fingers. Run: python3 Tests/jitter/parity_test.py
"""
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "scripts"))
import jitter_measure  # noqa: E402

NAN = float("nan")


def rows(fuzz, libinput):
    return [("none", (3.0, 100, 1.0, 0.0, 20), 50), ("fuzz", fuzz, 40), ("libinput", libinput, 45)]


def status(fuzz, libinput):
    return jitter_measure.parity_status("test", "fuzz", rows(fuzz, libinput))


cases = [
    ("within parity", (1.5, 100, 0.5, 0.0, 20), (1.9, 100, 0.6, 0.0, 20), 0),
    ("jitter within the tolerance", (1.95, 100, 0.5, 0.0, 20), (1.9, 100, 0.6, 0.0, 20), 0),
    ("jitter worse", (2.0, 100, 0.5, 0.0, 20), (1.9, 100, 0.6, 0.0, 20), 1),
    ("lag worse", (1.5, 100, 0.5, 0.3, 20), (1.9, 100, 0.6, 0.0, 20), 1),
    ("no fast frames on either side: lag not compared", (1.5, 100, 0.5, NAN, 0), (1.9, 100, 0.6, NAN, 0), 0),
    # A side without samples where the other has them lost its fingers (libinput gave nothing, or touchd's
    # output of the mode is empty): that is no parity.
    ("touchd's output without samples", (NAN, 0, NAN, NAN, 0), (1.9, 100, 0.6, 0.0, 20), 1),
    ("libinput's output without samples", (1.5, 100, 0.5, 0.0, 20), (NAN, 0, NAN, NAN, 0), 1),
]
failed = 0
for name, fuzz, libinput, expected in cases:
    got = status(fuzz, libinput)
    if got != expected:
        failed += 1
        print(f"FAIL {name}: status {got}, expected {expected}")
print(f"{len(cases) - failed} of {len(cases)} passed")
sys.exit(1 if failed else 0)
