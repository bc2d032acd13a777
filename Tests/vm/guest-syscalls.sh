#!/bin/sh
# Runs INSIDE the vmrun.sh guest: the system calls `touchd run` makes a frame on the live path (docs/performance.md,
# "System calls a frame"). For each touchd given as an argument: the Nexus 4 touchscreen made by evemu-device, the
# daemon with one `touchctl monitor --raw --events touch` client, and `strace -f -c` attached to the daemon while
# evemu-play plays n4.events three times. Prints per binary
#   syscalls LABEL frames N calls N per-frame X
# then strace's table. Run by hand (see docs/performance.md for the command line).
set -u
. /vm/device-node.sh
D=/touchd
W=${VMRUN_OUT:-/tmp}
SOCK=/tmp/touchd.sock
PLAYS=3
frames=$(( $(grep -c ' 0000 0000 0000$' $D/n4.events) * PLAYS ))
for binary in "$@"; do
    label=$(echo "$binary" | tr / _)
    start_device "$label" $D/n4.desc || continue
    rm -f $SOCK
    "$binary" run --socket $SOCK --log-level warning < /dev/null 2> "$W/$label-daemon.log" &
    TOUCHD=$!
    i=0
    while [ ! -S $SOCK ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
    touchctl --socket $SOCK monitor --raw --events touch < /dev/null > "$W/$label-client.ndjson" 2>&1 &
    CLIENT=$!
    sleep 1
    strace -f -c -o "$W/$label-strace.txt" -p $TOUCHD 2> "$W/$label-strace.err" &
    STRACE=$!
    sleep 1
    p=0
    while [ $p -lt $PLAYS ]; do
        evemu-play "$NODE" < $D/n4.events
        p=$((p + 1))
    done
    sleep 1
    kill -INT $STRACE
    wait $STRACE 2>/dev/null
    calls=$(awk '$NF == "total" { print $4 }' "$W/$label-strace.txt")
    echo "syscalls $label frames $frames calls $calls per-frame $(echo "$calls $frames" | awk '{printf "%.2f", $1 / $2}')" \
        "downs $(grep -c '"type":"down"' "$W/$label-client.ndjson")"
    cat "$W/$label-strace.txt"
    kill $TOUCHD $CLIENT 2>/dev/null
    wait $TOUCHD $CLIENT 2>/dev/null
    kill $DEVICE 2>/dev/null
    wait $DEVICE 2>/dev/null
done
exit 0
