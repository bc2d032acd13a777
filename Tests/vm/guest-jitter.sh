#!/bin/sh
# The libinput column of scripts/jitter-measure.sh --live, INSIDE the vmrun.sh guest (--udev). For each stream
# listed in /touchd/streams.txt ("LABEL|DESCRIPTION|EVENTS", paths under /touchd): evemu-device creates the uinput
# device from DESCRIPTION; evemu-record (what the kernel delivers, after its own fuzz filter) and
# `libinput debug-events --device NODE` read it at once while evemu-play plays EVENTS. Writes, per stream,
# $VMRUN_OUT/LABEL-kernel.evemu and $VMRUN_OUT/LABEL-libinput.txt, and prints one line:
#   stream LABEL node NODE kernel-events N libinput-lines N
# One stream at a time: its device is removed (evemu-device ended) before the next is made.
set -u
. /vm/device-node.sh
D=/touchd
W=${VMRUN_OUT:-/tmp}
status=0

while IFS='|' read -r LABEL DESC EVENTS; do
    [ -n "$LABEL" ] || continue
    start_device "$LABEL" "$D/$DESC" || { status=1; continue; }
    evemu-record "$NODE" < /dev/null > "$W/$LABEL-kernel.evemu" 2> "$W/$LABEL-record.err" &
    RECORD=$!
    libinput-debug-events --device "$NODE" < /dev/null > "$W/$LABEL-libinput.txt" 2> "$W/$LABEL-libinput.err" &
    LIBINPUT=$!
    sleep 2
    evemu-play "$NODE" < "$D/$EVENTS"
    sleep 1
    kill $RECORD $LIBINPUT 2>/dev/null
    wait $RECORD $LIBINPUT 2>/dev/null
    kill $DEVICE 2>/dev/null
    wait $DEVICE 2>/dev/null
    echo "stream $LABEL node $NODE kernel-events $(grep -c '^E:' "$W/$LABEL-kernel.evemu")" \
        "libinput-lines $(grep -c TOUCH_ "$W/$LABEL-libinput.txt")"
    head -n 5 "$W/$LABEL-libinput.err"
done < $D/streams.txt
exit $status
