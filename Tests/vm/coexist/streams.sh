#!/bin/sh
# Writes the guest's three streams for the Nexus 4's description (x 0...1535, y 0...2559, 10 slots), evemu event
# lines at 100 Hz, into DIR:
#   swipe3.events  a finger alone for 3 frames, then two more in one frame, all three 30 units down a frame for
#                  10 frames, all lifted (a three-finger swipe whose first finger went down alone);
#   scroll1.events one finger 20 units up a frame for 40 frames (a one-finger scroll), lifted;
#   pinch.events   two fingers in two frames, the second 20 units right a frame for 10 frames, both lifted.
# The scroll's expected positions are its own lines: scroll1.expected, "x y" a frame from the down on.
set -eu
DIR=$1
awk -v dir="$DIR" '
function at(f) { us = f * 10000; return sprintf("E: %d.%06d", int(us / 1000000), us % 1000000) }
function ev(f, type, code, value, file) { printf "%s %04x %04x %d\n", at(f), type, code, value > file }
function syn(f, file) { ev(f, 0, 0, 0, file) }
BEGIN {
    s = dir "/swipe3.events"
    ev(0, 3, 47, 0, s); ev(0, 3, 57, 10, s); ev(0, 3, 53, 400, s); ev(0, 3, 54, 1000, s); syn(0, s)
    for (f = 1; f < 3; f++) { ev(f, 3, 58, 40 + f, s); syn(f, s) }
    ev(3, 3, 47, 1, s); ev(3, 3, 57, 11, s); ev(3, 3, 53, 700, s); ev(3, 3, 54, 1000, s)
    ev(3, 3, 47, 2, s); ev(3, 3, 57, 12, s); ev(3, 3, 53, 1000, s); ev(3, 3, 54, 1000, s); syn(3, s)
    for (f = 4; f < 14; f++) {
        for (k = 0; k < 3; k++) { ev(f, 3, 47, k, s); ev(f, 3, 54, 1000 + 30 * (f - 3), s) }
        syn(f, s)
    }
    for (k = 0; k < 3; k++) { ev(14, 3, 47, k, s); ev(14, 3, 57, -1, s) }
    syn(14, s)

    c = dir "/scroll1.events"; e = dir "/scroll1.expected"
    ev(0, 3, 47, 0, c); ev(0, 3, 57, 20, c); ev(0, 3, 53, 800, c); ev(0, 3, 54, 2000, c); syn(0, c)
    print 800, 2000 > e
    for (f = 1; f <= 40; f++) { ev(f, 3, 54, 2000 - 20 * f, c); syn(f, c); print 800, 2000 - 20 * f > e }
    ev(41, 3, 57, -1, c); syn(41, c)

    p = dir "/pinch.events"
    ev(0, 3, 47, 0, p); ev(0, 3, 57, 30, p); ev(0, 3, 53, 500, p); ev(0, 3, 54, 1200, p); syn(0, p)
    ev(1, 3, 47, 1, p); ev(1, 3, 57, 31, p); ev(1, 3, 53, 900, p); ev(1, 3, 54, 1200, p); syn(1, p)
    for (f = 2; f < 12; f++) { ev(f, 3, 53, 900 + 20 * (f - 1), p); syn(f, p) }
    ev(12, 3, 57, -1, p); ev(12, 3, 47, 0, p); ev(12, 3, 57, -1, p); syn(12, p)
}'
