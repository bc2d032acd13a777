#!/bin/sh
# Runs INSIDE the vmrun.sh guest (--udev): gestures that take their fingers back from the compositor.
# touchd grabs an evemu device made from the Nexus 4's description, with the kiosk scene of docs/kiosk.md (a):
# a full-screen background that forwards, a pinch taken when it begins, a three-finger swipe taken as its third
# finger lands. `libinput debug-events` reads touchd's virtual touchscreen and `touchctl monitor` the socket while
# three streams (Tests/vm/coexist/streams.sh) are played one after the other:
#  1. a three-finger swipe whose first finger went down alone: libinput gets that finger's down, then a
#     TOUCH_CANCEL, and nothing of the other two; the client gets all three, down to up, and the swipe;
#  2. a one-finger scroll: libinput gets it whole, every position the stream's;
#  3. a pinch: libinput gets both downs, then both cancelled at the pinch's begin; the client gets both, whole;
#  4. a palm by size (the device's palmSize is 4 units; the stream, made by scripts/vm-test.sh from the Nexus 4
#     recording, is a finger of major 4 that grows to 5): libinput gets the down and every motion up to the frame
#     before the one where the major passes 4, then a TOUCH_CANCEL, nothing after; the client gets the down, the
#     moves, and a cancel at that frame's position that says "tool":"palm", nothing after.
set -u
. /vm/device-node.sh
D=/touchd
W=${VMRUN_OUT:-/tmp}
SOCK=/tmp/touchd.sock
fail=0
check() { if eval "$2"; then echo "PASS: $1"; else echo "FAIL: $1"; fail=1; fi; }
# The lines of FILE after line FROM: what one stream added.
since() { tail -n +$(($2 + 1)) "$1"; }
count() { grep -c "$1" || true; }

sh /vm/coexist/streams.sh $D
start_device real $D/n4.desc || exit 1
touchd run --socket $SOCK --config /vm/coexist/config.json --scene $D/browser.json --log-level debug \
    < /dev/null 2> $W/daemon.log &
TOUCHD=$!
VNODE=$(device_node "touch_dev (touchd)")
check "touchd made the virtual touchscreen ($VNODE)" "[ -n \"$VNODE\" ]"
udevadm settle --timeout=10
SYS=/sys/class/input/${VNODE##*/}/device
# ABS_MT_TOOL_TYPE is bit 0x37 (55) of the abs capabilities, in the last 64-bit word.
cat $SYS/capabilities/abs > $W/virtual-abs.txt
ABS=$((0x$(awk '{ print $NF }' $W/virtual-abs.txt)))
check "the virtual touchscreen declares ABS_MT_TOOL_TYPE (the Nexus 4 has none)" "[ $(( (ABS >> 55) & 1 )) = 1 ]"
touchctl --socket $SOCK monitor --raw --events touch,gesture < /dev/null > $W/client.ndjson 2>&1 &
CLIENT=$!
libinput-debug-events --device "$VNODE" < /dev/null > $W/libinput.txt 2> $W/libinput.err &
LIBINPUT=$!
sleep 2

play() {
    L=$(wc -l < $W/libinput.txt)
    C=$(wc -l < $W/client.ndjson)
    evemu-play "$NODE" < "$D/$1.events"
    sleep 1.2
    since $W/libinput.txt "$L" > "$W/$1-libinput.txt"
    since $W/client.ndjson "$C" > "$W/$1-client.ndjson"
}

play swipe3
L=$W/swipe3-libinput.txt
C=$W/swipe3-client.ndjson
check "swipe: libinput saw one touch down and its TOUCH_CANCEL, no up" \
    "[ \$(count TOUCH_DOWN < $L) = 1 ] && [ \$(count TOUCH_CANCEL < $L) = 1 ] && [ \$(count TOUCH_UP < $L) = 0 ]"
check "swipe: the cancel came before any motion of the other two (nothing of them at all)" \
    "! sed '/TOUCH_CANCEL/q' $L | grep -q 'TOUCH_MOTION' && [ \$(sed '1,/TOUCH_CANCEL/d' $L | count 'TOUCH_\(DOWN\|MOTION\|UP\|CANCEL\)') = 0 ]"
check "swipe: the client saw 3 downs, 3 ups and the swipe ended" \
    "[ \$(count '\"type\":\"down\"' < $C) = 3 ] && [ \$(count '\"type\":\"up\"' < $C) = 3 ] && grep -q '\"gesture\":\"swipe\".*\"state\":\"ended\"' $C"

play scroll1
L=$W/scroll1-libinput.txt
# libinput's millimetres are raw units on a panel that declares no resolution (it takes 0 as 1).
grep -E 'TOUCH_(DOWN|MOTION)' $L | sed -E 's/.*\( *([0-9.]+)\/ *([0-9.]+)mm\).*/\1 \2/' \
    | awk '{ printf "%d %d\n", $1 + 0.5, $2 + 0.5 }' > $W/scroll1-seen.txt
check "scroll: libinput got it whole (a down, 40 motions, an up, no cancel)" \
    "[ \$(count TOUCH_DOWN < $L) = 1 ] && [ \$(count TOUCH_MOTION < $L) = 40 ] && [ \$(count TOUCH_UP < $L) = 1 ] && [ \$(count TOUCH_CANCEL < $L) = 0 ]"
check "scroll: every position libinput reports is the stream's" "cmp -s $W/scroll1-seen.txt $D/scroll1.expected"

play pinch
L=$W/pinch-libinput.txt
C=$W/pinch-client.ndjson
check "pinch: libinput saw both downs, then both cancelled, no up" \
    "[ \$(count TOUCH_DOWN < $L) = 2 ] && [ \$(count TOUCH_CANCEL < $L) = 2 ] && [ \$(count TOUCH_UP < $L) = 0 ]"
# The pinch begins at the first move of the second finger (20 units past its 10-unit allowable movement): libinput
# may see that move's frame at most before the cancels.
check "pinch: the cancels came at the pinch's begin (at most one motion before them)" \
    "[ \$(sed '/TOUCH_CANCEL/q' $L | count TOUCH_MOTION) -le 1 ]"
check "pinch: the client saw both fingers whole and the pinch begin" \
    "[ \$(count '\"type\":\"down\"' < $C) = 2 ] && [ \$(count '\"type\":\"up\"' < $C) = 2 ] && grep -q '\"gesture\":\"pinch\".*\"state\":\"began\"' $C"

play palm
L=$W/palm-libinput.txt
C=$W/palm-client.ndjson
# palm.expected: the motions before the palm frame, the last position before it, the palm frame's position.
MOTIONS=$(sed -n 1p $D/palm.expected)
set -- $(sed -n 2p $D/palm.expected) $(sed -n 3p $D/palm.expected)
check "palm: libinput saw one down, $MOTIONS motions, then a TOUCH_CANCEL, and nothing after it" \
    "[ \$(count TOUCH_DOWN < $L) = 1 ] && [ \$(sed '/TOUCH_CANCEL/q' $L | count TOUCH_MOTION) = $MOTIONS ] && [ \$(count TOUCH_CANCEL < $L) = 1 ] && [ \$(sed '1,/TOUCH_CANCEL/d' $L | count 'TOUCH_\(DOWN\|MOTION\|UP\|CANCEL\)') = 0 ]"
LAST=$(sed '/TOUCH_CANCEL/q' $L | grep TOUCH_MOTION | tail -n 1 | sed -E 's/.*\( *([0-9.]+)\/ *([0-9.]+)mm\).*/\1 \2/' \
    | awk '{ printf "%d %d", $1 + 0.5, $2 + 0.5 }')
check "palm: libinput's last motion before the cancel is the frame before the palm frame's ($1 $2; saw $LAST)" "[ \"$LAST\" = \"$1 $2\" ]"
CANCEL=$(grep '"type":"cancel"' $C)
check "palm: the client saw the down and one cancel, no up" \
    "[ \$(count '\"type\":\"down\"' < $C) = 1 ] && [ \$(count '\"type\":\"cancel\"' < $C) = 1 ] && [ \$(count '\"type\":\"up\"' < $C) = 0 ]"
check "palm: the client's cancel says palm and comes at the palm frame (raw $3 $4, major 5)" \
    "echo '$CANCEL' | grep -q '\"tool\":\"palm\"' && echo '$CANCEL' | grep -q '\"raw_x\":$3,\"raw_y\":$4' && echo '$CANCEL' | grep -q '\"touch_major\":5'"
check "palm: the client's last move before it is at the frame before (raw $1 $2) and nothing came after it" \
    "sed '/\"type\":\"cancel\"/q' $C | grep '\"type\":\"move\"' | tail -n 1 | grep -q '\"raw_x\":$1,\"raw_y\":$2' && [ \$(sed '1,/\"type\":\"cancel\"/d' $C | count '\"type\":\"\(down\|move\|up\|cancel\)\"') = 0 ]"

kill $TOUCHD $LIBINPUT $CLIENT 2>/dev/null
wait $TOUCHD $LIBINPUT $CLIENT 2>/dev/null
kill $DEVICE 2>/dev/null
head -n 5 $W/libinput.err
exit $fail
