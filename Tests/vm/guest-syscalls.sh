#!/bin/sh
# Runs INSIDE the vmrun.sh guest: the system calls `touchd run` makes a frame on the live path (docs/performance.md,
# "System calls a frame"). For each touchd given as an argument: the Nexus 4 touchscreen made by evemu-device, the
# daemon with one `touchctl monitor --raw --events touch` client, and `strace -f -c` attached to the daemon while
# evemu-play plays n4.events three times. Prints per binary
#   syscalls LABEL frames N calls N per-frame X downs N
# then strace's table, and judges it: PASS or FAIL for at most MAX_PER_FRAME calls a frame (3.2 unless set: the
# floor is three, wait, read and send, and frames that change no finger send nothing; libevdev's reads until EAGAIN
# made four) and for every touch of the three plays reaching the client as a down (12 tracking ids a play, counted
# from the recording here). scripts/vm-test.sh runs it on the built touchd; by hand it takes several binaries
# (docs/performance.md has the command line).
set -u
. /vm/device-node.sh
D=/touchd
W=${VMRUN_OUT:-/tmp}
SOCK=/tmp/touchd.sock
PLAYS=3
MAX_PER_FRAME=${MAX_PER_FRAME:-3.2}
touches=$(awk '$4 == "0039" && $5 !~ /^-0*1$/ && $5 != "ffffffff"' $D/n4.events | wc -l)
downs_expected=$((touches * PLAYS))
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
    per_frame=$(echo "$calls $frames" | awk '{printf "%.2f", $1 / $2}')
    downs=$(grep -c '"type":"down"' "$W/$label-client.ndjson")
    echo "syscalls $label frames $frames calls $calls per-frame $per_frame downs $downs"
    cat "$W/$label-strace.txt"
    if [ -n "$calls" ] && awk -v p="$per_frame" -v m="$MAX_PER_FRAME" 'BEGIN { exit !(p <= m) }'; then
        echo "PASS: syscalls $label: $per_frame calls a frame (at most $MAX_PER_FRAME)"
    else
        echo "FAIL: syscalls $label: ${per_frame:-no count} calls a frame (at most $MAX_PER_FRAME); strace: $(head -c 300 "$W/$label-strace.err")"
    fi
    if [ "$downs" -eq "$downs_expected" ]; then
        echo "PASS: syscalls $label: $downs downs ($touches touches x $PLAYS plays)"
    else
        echo "FAIL: syscalls $label: $downs downs, expected $downs_expected ($touches touches x $PLAYS plays)"
    fi
    kill $TOUCHD $CLIENT 2>/dev/null
    wait $TOUCHD $CLIENT 2>/dev/null
    kill $DEVICE 2>/dev/null
    wait $DEVICE 2>/dev/null
done
exit 0
