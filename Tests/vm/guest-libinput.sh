#!/bin/sh
# The live row of scripts/bench.sh --live, INSIDE the vmrun.sh guest (--udev). For each stream listed in
# /touchd/streams.txt ("LABEL|DESCRIPTION|EVENTS|PLAYS", paths under /touchd): evemu-device creates the uinput
# touchscreen from DESCRIPTION, then `touchd run` (a scene and one subscribed `touchctl monitor` client) and
# `libinput debug-events --device NODE` read it at once while evemu-play plays EVENTS, PLAYS times in a row.
# Prints, per stream, each reader's CPU time (utime+stime from /proc/PID/stat) over the same playback, then the
# user and system parts of each (under TCG a system call costs the guest far more than on hardware):
#   cpu LABEL touchd MS ms libinput MS ms events N seconds S lines-touchd N lines-libinput N
#       user-touchd MS sys-touchd MS user-libinput MS sys-libinput MS
# One stream at a time: its device is removed (evemu-device ended) before the next is made.
set -u
. /vm/device-node.sh
D=/touchd
W=${VMRUN_OUT:-/tmp}
SOCK=/tmp/touchd.sock
HZ=100 # USER_HZ: the unit of /proc/PID/stat
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
user_ticks() { awk '{print $14}' "/proc/$1/stat"; }
uptime_s() { cut -d' ' -f1 /proc/uptime; }
status=0

while IFS='|' read -r LABEL DESC EVENTS PLAYS; do
    [ -n "$LABEL" ] || continue
    start_device "$LABEL" "$D/$DESC" || { status=1; continue; }
    rm -f $SOCK
    touchd run --socket $SOCK --scene $D/scene.json --log-level warning < /dev/null 2> "$W/$LABEL-daemon.log" &
    TOUCHD=$!
    i=0
    while [ ! -S $SOCK ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
    touchctl --socket $SOCK monitor --raw --events touch,gesture < /dev/null > "$W/$LABEL-client.ndjson" 2>&1 &
    CLIENT=$!
    libinput-debug-events --device "$NODE" < /dev/null > "$W/$LABEL-libinput.txt" 2> "$W/$LABEL-libinput.err" &
    LIBINPUT=$!
    sleep 2
    T0=$(ticks $TOUCHD)
    L0=$(ticks $LIBINPUT)
    TU0=$(user_ticks $TOUCHD)
    LU0=$(user_ticks $LIBINPUT)
    START=$(uptime_s)
    p=0
    while [ $p -lt "$PLAYS" ]; do
        evemu-play "$NODE" < "$D/$EVENTS"
        p=$((p + 1))
    done
    sleep 1
    T1=$(ticks $TOUCHD)
    L1=$(ticks $LIBINPUT)
    TU=$(( ($(user_ticks $TOUCHD) - TU0) * 1000 / HZ ))
    LU=$(( ($(user_ticks $LIBINPUT) - LU0) * 1000 / HZ ))
    END=$(uptime_s)
    events=$(( $(grep -c '^E:' "$D/$EVENTS") * PLAYS ))
    seconds=$(echo "$END $START" | awk '{printf "%.1f", $1 - $2}')
    echo "cpu $LABEL touchd $(( (T1 - T0) * 1000 / HZ )) ms libinput $(( (L1 - L0) * 1000 / HZ )) ms" \
        "events $events seconds $seconds lines-touchd $(grep -c '"type"' "$W/$LABEL-client.ndjson")" \
        "lines-libinput $(wc -l < "$W/$LABEL-libinput.txt")" \
        "user-touchd $TU sys-touchd $(( (T1 - T0) * 1000 / HZ - TU )) user-libinput $LU" \
        "sys-libinput $(( (L1 - L0) * 1000 / HZ - LU ))"
    kill $TOUCHD $LIBINPUT $CLIENT 2>/dev/null
    wait $TOUCHD $LIBINPUT $CLIENT 2>/dev/null
    kill $DEVICE 2>/dev/null
    wait $DEVICE 2>/dev/null
    head -n 5 "$W/$LABEL-libinput.err"
done < $D/streams.txt
exit $status
