#!/bin/sh
# Runs INSIDE the vmrun.sh guest: faults on a real kernel.
#  A. SYN_DROPPED for real: touchd is stopped (SIGSTOP) while evemu-play drives the Nexus 4 recording, cut
#     where fingers are still down, past the kernel's per-client buffer; after SIGCONT touchd must hold exactly
#     the fingers the device holds: none stuck, none doubled, every ended finger ended once.
#  B. Unplug mid-touch: the device is destroyed with those fingers down: each gets exactly one cancel, and
#     clients hear that the device left. Plugged back, it is picked up and new touches flow.
#  C. SYN_DROPPED mid-stroke: three fingers held and moving on a second panel while touchd is stopped and after it
#     goes on: they keep moving and lift once each.
set -u
D=/touchd
W=${VMRUN_OUT:-/tmp}
NAME="touch_dev"
SOCK=/tmp/touchd.sock
fail=0
check() { if eval "$2"; then echo "PASS: $1"; else echo "FAIL: $1"; fail=1; fi; }
wait_for() { i=0; while ! eval "$1" && [ $i -lt "$2" ]; do sleep 0.1; i=$((i+1)); done; eval "$1"; }
find_node() { for n in /sys/class/input/event*; do [ "$(cat "$n/device/name" 2>/dev/null)" = "$NAME" ] && echo /dev/input/${n##*/}; done; }
# Fingers that went down and did not end, from an NDJSON stream (finger ids of downs minus ups and cancels).
live() { awk -F'"finger":' '/"type":"(down|up|cancel)"/ { split($2, a, ","); t = $0; sub(/.*"type":"/, "", t); sub(/".*/, "", t); if (t == "down") l[a[1]] = 1; else delete l[a[1]] } END { n = 0; for (k in l) n++; print n }' "$1"; }
# Problems in a stream: a finger down twice, an end without a live down, events after the end.
problems() { awk -F'"finger":' '/"type":"(down|move|up|cancel)"/ { split($2, a, ","); f = a[1]; t = $0; sub(/.*"type":"/, "", t); sub(/".*/, "", t);
    if (t == "down") { if (seen[f]++) print "down twice: " f; live[f] = 1 }
    else if (!(f in live)) print t " for a finger not down: " f
    else if (t != "move") delete live[f] }' "$1"; }

# The replay's summary says how many fingers the recording leaves down (it ends them with cancel at its end).
touchd replay $D/n4-cut.events --desc $D/n4.desc > $W/expected.ndjson 2> $W/expected.summary
EXPECTED=$(sed -n 's/.*still down at the end of the stream: \([0-9]*\).*/\1/p' $W/expected.summary)
EXPECTED=${EXPECTED:-0}
echo "== the cut recording leaves $EXPECTED finger(s) down"

evemu-device $D/n4.desc > $W/device.out 2>&1 &
DEVICE=$!
wait_for '[ -n "$(find_node)" ]' 100
NODE=$(find_node)
touchd run --socket $SOCK --log-level debug 2> $W/daemon.log &
TOUCHD=$!
wait_for "[ -S $SOCK ]" 100
wait_for "grep -q \"$NODE .*touchscreen\" $W/daemon.log" 100
touchctl --socket $SOCK monitor --raw --events touch,device > $W/stream.ndjson 2>&1 &
MONITOR=$!
sleep 0.5

# A. Stop the reader while the recording plays.
evemu-play "$NODE" < $D/n4-cut.events &
PLAY=$!
sleep 0.8
kill -STOP $TOUCHD
wait $PLAY
kill -CONT $TOUCHD
sleep 1.5
check "the kernel dropped events and touchd resynchronised" "grep -q 'SYN_DROPPED' $W/daemon.log"
check "touchd holds exactly the fingers the device holds ($EXPECTED)" "[ \"\$(live $W/stream.ndjson)\" = \"$EXPECTED\" ]"
check "no finger doubled, none ended twice, nothing after an end" "[ -z \"\$(problems $W/stream.ndjson)\" ]"
problems $W/stream.ndjson | head -5

# B. Unplug with those fingers down.
BEFORE=$(grep -c '"type":"cancel"' $W/stream.ndjson)
kill $DEVICE; wait $DEVICE 2>/dev/null
wait_for "grep -q device-removed $W/stream.ndjson" 50
CANCELS=$(( $(grep -c '"type":"cancel"' $W/stream.ndjson) - BEFORE ))
check "each live finger got exactly one cancel ($CANCELS for $EXPECTED)" "[ $CANCELS = $EXPECTED ] && [ \"\$(live $W/stream.ndjson)\" = 0 ]"
check "clients were told the device left" "grep -q '\"type\":\"device-removed\"' $W/stream.ndjson"
check "still no inconsistency" "[ -z \"\$(problems $W/stream.ndjson)\" ]"

# Plug it back: picked up, new touches flow.
evemu-device $D/n4.desc > $W/device2.out 2>&1 &
DEVICE=$!
wait_for '[ -n "$(find_node)" ]' 100
NODE=$(find_node)
check "the device is picked up again" "wait_for 'grep -q device-added $W/stream.ndjson' 100"
DOWNS=$(grep -c '"type":"down"' $W/stream.ndjson)
evemu-play "$NODE" < $D/n4-cut.events
sleep 0.5
check "new touches flow after the replug" "[ \$(grep -c '\"type\":\"down\"' $W/stream.ndjson) -gt $DOWNS ]"

# C. A drop mid-stroke: fingers held and moving while touchd is stopped, still moving after it goes on. The events
#    read after the drop, in the same read as it, must follow the resynchronised state, not precede it: then the
#    held fingers go on moving and lift once, with no cancel.
evemu-device $D/held.desc > $W/held-device.out 2>&1 &
HELD=$!
held_node() { for n in /sys/class/input/event*; do [ "$(cat "$n/device/name" 2>/dev/null)" = held_dev ] && echo /dev/input/${n##*/}; done; }
wait_for '[ -n "$(held_node)" ]' 100
HNODE=$(held_node)
wait_for "grep -q \"$HNODE .*touchscreen\" $W/daemon.log" 100
touchctl --socket $SOCK monitor --raw --events touch --devices "${HNODE##*/}" > $W/held.ndjson 2>&1 &
HELD_MONITOR=$!
sleep 0.5
DROPS=$(grep -c 'SYN_DROPPED' $W/daemon.log)
evemu-play "$HNODE" < $D/held.events &
PLAY=$!
sleep 1
kill -STOP $TOUCHD
sleep 1
kill -CONT $TOUCHD
wait $PLAY
sleep 1.5
lifted_once() {
    [ "$(grep -c '"type":"up"' $W/held.ndjson)" = 3 ] && [ "$(grep -c '"type":"cancel"' $W/held.ndjson)" = 0 ] &&
        [ "$(live $W/held.ndjson)" = 0 ]
}
# How many fingers' moves reached the end of their stroke (raw y 2,494; 2,400 leaves room for the filter).
stroke_ends() {
    awk '/"type":"move"/ {
        f = $0; sub(/.*"finger":/, "", f); sub(/,.*/, "", f)
        y = $0; sub(/.*"raw_y":/, "", y); sub(/[,}].*/, "", y)
        if (y + 0 > m[f]) m[f] = y + 0
    } END { n = 0; for (f in m) if (m[f] >= 2400) n++; print n }' $W/held.ndjson
}
check "the kernel dropped events mid-stroke" "[ \$(grep -c 'SYN_DROPPED' $W/daemon.log) -gt $DROPS ]"
check "the three held fingers lifted once each, none cancelled, none left down" lifted_once
check "each finger went on moving to the end of its stroke" '[ "$(stroke_ends)" = 3 ]'
check "no finger doubled, none ended twice, nothing after an end (mid-stroke drop)" "[ -z \"\$(problems $W/held.ndjson)\" ]"
problems $W/held.ndjson | head -5
kill $HELD $HELD_MONITOR 2>/dev/null
check "the daemon kept running throughout" "kill -0 $TOUCHD"
kill $TOUCHD $MONITOR $DEVICE 2>/dev/null
echo "---- daemon log"; grep -v '^<7>' $W/daemon.log | head -20
exit $fail
