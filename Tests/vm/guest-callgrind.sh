#!/bin/sh
# Row 4's instruction count, INSIDE the vmrun.sh guest (--udev, with valgrind.bin and its tools): the same streams as
# guest-libinput.sh, but `touchd run` (one subscribed `touchctl monitor` client) and `libinput debug-events` each run
# under callgrind, which counts the instructions they execute; TCG's cost per instruction then does not enter.
# Each stream is played twice over: 0 times (start-up and tear-down alone) and PLAYS times; the difference is what
# the playback cost each reader. Prints per stream and run:
#   instructions LABEL plays P events N touchd IR libinput IR lines-touchd N lines-libinput N
# The descriptions and events are under /touchd (streams-callgrind.txt, or else streams.txt:
# "LABEL|DESCRIPTION|EVENTS|PLAYS", as for guest-libinput.sh); touchd must have no DWARF 5 (valgrind 3.19 cannot
# read it: objcopy --strip-debug).
set -u
. /vm/device-node.sh
D=/touchd
W=${VMRUN_OUT:-/tmp}
SOCK=/tmp/touchd.sock
status=0
# bench.sh leaves out the streams that cannot be read under callgrind at their speed.
STREAMS=$D/streams-callgrind.txt
[ -f "$STREAMS" ] || STREAMS=$D/streams.txt

# Waits (up to $2 tenths of a second) until file $1 has stopped growing for two seconds: the reader under callgrind
# may still be catching up when evemu-play returns.
settle() {
    last=-1
    still=0
    i=0
    while [ $i -lt "$2" ] && [ $still -lt 20 ]; do
        size=$(wc -c < "$1")
        if [ "$size" = "$last" ]; then still=$((still + 1)); else still=0; fi
        last=$size
        sleep 0.1
        i=$((i + 1))
    done
}

# Waits (up to $2 tenths of a second) until file $1 is not empty.
appears() {
    i=0
    while [ ! -s "$1" ] && [ $i -lt "$2" ]; do sleep 0.1; i=$((i + 1)); done
}

total() { sed -n 's/^totals: //p' "$1"; }

while IFS='|' read -r LABEL DESC EVENTS PLAYS; do
    [ -n "$LABEL" ] || continue
    start_device "$LABEL" "$D/$DESC" || { status=1; continue; }
    for P in 0 "$PLAYS"; do
        OUT="$W/$LABEL-$P"
        rm -f $SOCK
        valgrind.bin --tool=callgrind --callgrind-out-file="$OUT-touchd.cg" touchd run --socket $SOCK \
            --scene $D/scene.json --log-level warning < /dev/null 2> "$OUT-daemon.log" &
        TOUCHD=$!
        # The socket listens before the devices are opened: wait until touchd lists the device.
        i=0
        while [ $i -lt 600 ]; do
            [ -S $SOCK ] && touchctl --socket $SOCK --timeout 60 devices 2>/dev/null | grep -q "${NODE##*/}" && break
            sleep 0.2
            i=$((i + 1))
        done
        touchctl --socket $SOCK monitor --raw --events touch,gesture < /dev/null > "$OUT-client.ndjson" 2>&1 &
        CLIENT=$!
        valgrind.bin --tool=callgrind --callgrind-out-file="$OUT-libinput.cg" libinput-debug-events \
            --device "$NODE" < /dev/null > "$OUT-libinput.txt" 2> "$OUT-libinput.err" &
        LIBINPUT=$!
        # libinput prints DEVICE_ADDED when it has opened the device; the client (not under callgrind) is quick.
        appears "$OUT-libinput.txt" 1200
        sleep 2
        p=0
        while [ $p -lt "$P" ]; do
            evemu-play "$NODE" < "$D/$EVENTS"
            p=$((p + 1))
        done
        settle "$OUT-client.ndjson" 600
        settle "$OUT-libinput.txt" 600
        kill $TOUCHD $LIBINPUT 2>/dev/null
        wait $TOUCHD $LIBINPUT 2>/dev/null
        kill $CLIENT 2>/dev/null
        wait $CLIENT 2>/dev/null
        touchd_ir=$(total "$OUT-touchd.cg")
        libinput_ir=$(total "$OUT-libinput.cg")
        if [ -z "$touchd_ir" ] || [ -z "$libinput_ir" ]; then
            echo "FAIL: $LABEL: no callgrind totals (plays $P)"
            head -n 5 "$OUT-daemon.log" "$OUT-libinput.err"
            status=1
        fi
        events=$(( $(grep -c '^E:' "$D/$EVENTS") * P ))
        echo "instructions $LABEL plays $P events $events touchd ${touchd_ir:-0} libinput ${libinput_ir:-0}" \
            "lines-touchd $(grep -c '"type"' "$OUT-client.ndjson") lines-libinput $(wc -l < "$OUT-libinput.txt")"
    done
    kill $DEVICE 2>/dev/null
    wait $DEVICE 2>/dev/null
done < "$STREAMS"
exit $status
