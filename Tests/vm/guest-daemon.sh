#!/bin/sh
# Runs INSIDE the vmrun.sh guest (busybox sh), as root, on a real kernel with uinput.
# 1. touchd run starts with no touchscreen; a client (touchctl monitor) subscribes.
# 2. evemu-device (Debian's evemu-tools) creates the demo touchscreen: hotplug, touchd must pick it up.
# 3. evemu-play drives it with the demo recording; the client's stream must equal what `touchd replay` prints
#    for the same file and scene (timing fields aside).
# 4. The device is destroyed: touchd reports it gone and keeps running.
# Usage: guest-daemon.sh plain|udev       Exit 0 = all checks passed.
set -u
. /vm/device-node.sh
MODE=${1:-plain}
D=/touchd
W=${VMRUN_OUT:-/tmp}
NAME="touchd demo panel"
SOCK=/tmp/touchd.sock
fail=0
say() { echo "== $*"; }
check() { if eval "$2"; then echo "PASS: $1"; else echo "FAIL: $1"; fail=1; fi; }
wait_for() {  # $1 = shell condition, $2 = tenths of a second
    i=0; while ! eval "$1" && [ $i -lt "$2" ]; do sleep 0.1; i=$((i+1)); done; eval "$1"
}

say "mode $MODE, kernel $(uname -r)"
if pidof systemd-udevd >/dev/null 2>&1; then say "udevd running"; else say "no udevd"; fi

# What the offline path prints: the touch, frame and region lines (gestures depend on wall-clock pacing).
touchd replay $D/panel.evemu --scene $D/scene.json -q | grep -v '"type":"gesture"' > $W/expected.ndjson
N=$(wc -l < $W/expected.ndjson)
say "expected $N lines from touchd replay"

touchd run --socket $SOCK --scene $D/scene.json --log-level debug 2> $W/daemon.log &
DAEMON=$!
check "the daemon listens" "wait_for '[ -S $SOCK ]' 100"
touchctl --socket $SOCK monitor --raw --events touch,frame,region --count "$N" > $W/live.ndjson 2> $W/monitor.err &
MONITOR=$!
check "the client is connected" "wait_for 'grep -q \"client 1 connected\" $W/daemon.log' 100"
sleep 0.3

evemu-device $D/panel.evemu > $W/evemu-device.out 2>&1 &
DEVICE=$!
NODE=$(device_node "$NAME")
check "evemu-device created the touchscreen" "[ -n '$NODE' ]"
[ "$MODE" = udev ] && udevadm settle --timeout=10
check "touchd opened the hotplugged device" "wait_for 'grep -q \"$NODE .*touchscreen\" $W/daemon.log' 100"
if [ "$MODE" = udev ]; then
    check "recognised through udev" "grep -q 'touchscreen (udev: ID_INPUT_TOUCHSCREEN=1)' $W/daemon.log"
else
    check "recognised by its capabilities" "grep -q 'touchscreen (capabilities: touch axes and INPUT_PROP_DIRECT)' $W/daemon.log"
fi

evemu-play "$NODE" < $D/panel.evemu 2> $W/evemu-play.err
say "evemu-play rc=$?"
wait_for "! kill -0 $MONITOR 2>/dev/null" 200
kill $MONITOR 2>/dev/null

# Compare without what depends on wall-clock pacing: times, the device's name, tap counts.
norm() { sed -E 's/"time_us":[0-9]+,?//; s/"device":"[^"]*",?//; s/"since_down_us":[0-9]+,//; s/"taps":[0-9]+,//' "$1"; }
norm $W/expected.ndjson > $W/expected.norm
norm $W/live.ndjson > $W/live.norm
say "live: $(wc -l < $W/live.ndjson) lines"
if cmp -s $W/expected.norm $W/live.norm; then
    echo "PASS: the live stream equals touchd replay's"
else
    echo "FAIL: the live stream differs from touchd replay's"; diff $W/expected.norm $W/live.norm | head -20; fail=1
fi

kill $DEVICE 2>/dev/null
check "touchd notices the device leave" "wait_for 'grep -q \"$NODE: .*touches were cancelled\" $W/daemon.log' 100"
check "the daemon is still running" "kill -0 $DAEMON"
kill -TERM $DAEMON
check "the daemon stops on SIGTERM" "wait_for '! kill -0 $DAEMON 2>/dev/null' 50"
check "the socket file is removed" "[ ! -e $SOCK ]"
echo "---- daemon log"; cat $W/daemon.log
exit $fail
