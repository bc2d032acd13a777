#!/bin/sh
# Benchmark 6, INSIDE the vmrun.sh guest (--udev): one uinput touchscreen driven by evemu-play with a long
# recording, read at once by `touchd run` (with a scene and one subscribed client) and by
# `libinput debug-events --device NODE`. Prints each reader's CPU time (utime+stime) over the same stream.
set -u
D=/touchd
W=${VMRUN_OUT:-/tmp}
NAME="touchd bench 10-finger panel"
SOCK=/tmp/touchd.sock
evemu-device $D/fingers.evemu > $W/device.out 2>&1 &
NODE=""
i=0
while [ -z "$NODE" ] && [ $i -lt 100 ]; do
    for n in /sys/class/input/event*; do [ "$(cat "$n/device/name" 2>/dev/null)" = "$NAME" ] && NODE=/dev/input/${n##*/}; done
    [ -n "$NODE" ] || { sleep 0.1; i=$((i+1)); }
done
[ -n "$NODE" ] || { echo "FAIL: no device"; exit 1; }
udevadm settle --timeout=10 2>/dev/null
touchd run --socket $SOCK --scene $D/scene.json --log-level warning 2> $W/daemon.log &
TOUCHD=$!
i=0; while [ ! -S $SOCK ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
touchctl --socket $SOCK monitor --raw --events touch,gesture > $W/client.ndjson 2>&1 &
CLIENT=$!
libinput-debug-events --device "$NODE" > $W/libinput.txt 2> $W/libinput.err &
LIBINPUT=$!
sleep 2
ticks() { awk '{print $14 + $15}' /proc/$1/stat; }
T0=$(ticks $TOUCHD); L0=$(ticks $LIBINPUT)
START=$(cut -d' ' -f1 /proc/uptime)
evemu-play "$NODE" < $D/fingers.evemu
sleep 1
T1=$(ticks $TOUCHD); L1=$(ticks $LIBINPUT)
END=$(cut -d' ' -f1 /proc/uptime)
HZ=100
echo "stream: $(grep -c '^E:' $D/fingers.evemu) events played in $(echo "$END $START" | awk '{printf "%.1f", $1 - $2}') s"
echo "touchd lines to its client: $(grep -c '"type"' $W/client.ndjson); libinput lines: $(wc -l < $W/libinput.txt)"
echo "cpu touchd $(( (T1 - T0) * 1000 / HZ )) ms libinput $(( (L1 - L0) * 1000 / HZ )) ms"
kill $TOUCHD $LIBINPUT $CLIENT 2>/dev/null
head -5 $W/libinput.err
exit 0
