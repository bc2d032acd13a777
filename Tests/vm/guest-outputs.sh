#!/bin/sh
# Runs INSIDE the vmrun.sh guest, booted with a two-output virtio-vga (scripts/vm-test.sh, mode outputs): qemu's own
# EDIDs in /sys/class/drm (Virtual-1 487 x 274 mm, Virtual-2 325 x 203 mm). Two uinput touchscreens of those sizes
# (Tests/vm/make-outputs-devices.sh) under "output": "auto" on a 3200x1080 layout must each land in their own
# monitor's rectangle, event by event: x = X + raw_x / (max + 1) * W, y = Y + raw_y / (max + 1) * H. Then
# Virtual-2 is switched off through its sysfs status: touchscreen b, whose size now matches nothing, must go to the
# only connected monitor, Virtual-1. (On 6.1 writing `status` of a connector forced on by `video=` sends no uevent,
# so the card's `change` uevent, what the kernel sends on a real hotplug, is raised through its uevent file.)
set -u
. /vm/device-node.sh
D=/touchd
W=${VMRUN_OUT:-/tmp}
SOCK=/tmp/touchd.sock
fail=0
say() { echo "== $*"; }
check() { if eval "$2"; then echo "PASS: $1"; else echo "FAIL: $1"; fail=1; fi; }
wait_for() { i=0; while ! eval "$1" && [ $i -lt "$2" ]; do sleep 0.1; i=$((i+1)); done; eval "$1"; }
# in_rectangle FILE DEVICE X Y W H XMAX YMAX: every touch event of DEVICE in FILE is where the mapping puts its raw
# position, inside the rectangle; prints the count checked.
in_rectangle() {
    grep "\"device\":\"$2\"" "$1" | grep '"type":"\(down\|move\|up\)"' | awk -v X="$3" -v Y="$4" -v W="$5" -v H="$6" \
        -v xm="$7" -v ym="$8" '
        function field(name,   s) { s = $0; sub(".*\"" name "\":", "", s); sub("[,}].*", "", s); return s + 0 }
        { n++; x = field("x"); y = field("y"); ex = X + field("raw_x") / (xm + 1) * W; ey = Y + field("raw_y") / (ym + 1) * H
          d = x - ex; if (d < 0) d = -d; e = y - ey; if (e < 0) e = -e
          if (d > 0.006 || e > 0.006 || x < X || x >= X + W || y < Y || y >= Y + H) { bad++; print "off: " $0 > "/dev/stderr" } }
        END { print n + 0; exit (bad > 0 || n == 0) }'
}

for c in /sys/class/drm/card*-*; do say "${c##*/}: $(cat $c/status), EDID $(wc -c < $c/edid) bytes"; done

touchd run --socket $SOCK --config $D/config.json --log-level debug 2> $W/daemon.log &
DAEMON=$!
check "the daemon listens" "wait_for '[ -S $SOCK ]' 100"
touchctl --socket $SOCK monitor --raw --events touch --count 82 > $W/live.ndjson 2> $W/monitor.err &
MONITOR=$!
check "the client is connected" "wait_for 'grep -q \"client 1 connected\" $W/daemon.log' 100"

evemu-device $D/a.desc > $W/a-device.out 2>&1 &
A_PID=$!
A=$(device_node "touchd output a")
evemu-device $D/b.desc > $W/b-device.out 2>&1 &
B_PID=$!
B=$(device_node "touchd output b")
check "both touchscreens exist ($A, $B)" "[ -n '$A' ] && [ -n '$B' ]"
check "a (487x274 mm) maps to Virtual-1 by its size" \
    "wait_for 'grep -q \"$A: maps to output Virtual-1 at 0,0,1920,1080 (auto: its size 487x274 mm matches\" $W/daemon.log' 100"
check "b (325x203 mm) maps to Virtual-2 by its size" \
    "wait_for 'grep -q \"$B: maps to output Virtual-2 at 1920,0,1280,800 (auto: its size 325x203 mm matches\" $W/daemon.log' 100"
touchd list-devices --config $D/config.json > $W/list-devices.txt 2>&1
check "list-devices shows qemu's monitors from their EDIDs" \
    "grep -q 'Virtual-1: connected, EDID RHT 1234 \"QEMU Monitor\", 487x274 mm, scene 0,0,1920,1080' $W/list-devices.txt"
check "list-devices shows each touchscreen's mapping and why" \
    "grep -q 'mapping: output Virtual-2 at 1920,0,1280,800 (auto: its size 325x203 mm' $W/list-devices.txt"

evemu-play "$A" < $D/a.events
evemu-play "$B" < $D/b.events
wait_for "! kill -0 $MONITOR 2>/dev/null" 200
kill $MONITOR 2>/dev/null
ka=${A##*/}; kb=${B##*/}
check "every event of a is in Virtual-1's rectangle where the mapping puts it ($(in_rectangle $W/live.ndjson $ka 0 0 1920 1080 3895 2191 2>&1 | tail -1) events)" \
    "in_rectangle $W/live.ndjson $ka 0 0 1920 1080 3895 2191 >/dev/null"
check "every event of b is in Virtual-2's rectangle where the mapping puts it ($(in_rectangle $W/live.ndjson $kb 1920 0 1280 800 2599 1623 2>&1 | tail -1) events)" \
    "in_rectangle $W/live.ndjson $kb 1920 0 1280 800 2599 1623 >/dev/null"

say "Virtual-2 off"
echo off > /sys/class/drm/card0-Virtual-2/status
say "Virtual-2 status: $(cat /sys/class/drm/card0-Virtual-2/status)"
sleep 1
grep -q 'monitors changed' $W/daemon.log && say "a uevent came by itself" || echo change > /sys/class/drm/card0/uevent
check "the daemon hears the DRM hotplug" "wait_for 'grep -q \"monitors changed; connected: Virtual-1\$\" $W/daemon.log' 100"
check "b moves to the only connected monitor, Virtual-1" \
    "wait_for 'grep -q \"$B: maps to output Virtual-1 at 0,0,1920,1080 (auto: the only connected monitor\" $W/daemon.log' 50"
touchctl --socket $SOCK monitor --raw --events touch --count 41 > $W/after.ndjson 2> $W/monitor2.err &
MONITOR=$!
sleep 0.5
evemu-play "$B" < $D/b.events
wait_for "! kill -0 $MONITOR 2>/dev/null" 200
kill $MONITOR 2>/dev/null
check "every event of b is now in Virtual-1's rectangle ($(in_rectangle $W/after.ndjson $kb 0 0 1920 1080 2599 1623 2>&1 | tail -1) events)" \
    "in_rectangle $W/after.ndjson $kb 0 0 1920 1080 2599 1623 >/dev/null"

kill $A_PID $B_PID 2>/dev/null
kill -TERM $DAEMON
wait_for '! kill -0 $DAEMON 2>/dev/null' 50
echo "---- list-devices"; cat $W/list-devices.txt
echo "---- daemon log"; cat $W/daemon.log
exit $fail
