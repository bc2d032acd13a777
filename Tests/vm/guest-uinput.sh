#!/bin/sh
# Runs INSIDE the vmrun.sh guest (--udev): the virtual touchscreen (forwardUnclaimed), with the
# deployment's rights: /dev/uinput given to touchd-uinput by the shipped udev rule, touchd not root.
#  A. The Nexus 4 recording is played on an evemu device that touchd grabs, with a scene claiming the left edge
#     (raw x < 400). `libinput debug-events` reads touchd's virtual touchscreen and `touchctl monitor` the socket;
#     the host (Tests/vm/uinput-check.py) compares both with the recording's own fingers. udev must tag the
#     virtual device ID_INPUT_TOUCHSCREEN=1, and nobody else may read the grabbed real device.
#  B. SYN_DROPPED for real (touchd stopped while the recording, cut with fingers down, plays), then unplug: the
#     virtual touchscreen holds the fingers touchd holds unassigned after the resync, lifts them all before it
#     goes, and goes with the real device.
#  C. /dev/uinput closed to touchd: a new device is read shared, as without the option, and the failure logged.
#  D. touchd stops with fingers down: the virtual touchscreen lifts them, then goes; the real device is released.
set -u
D=/touchd
W=${VMRUN_OUT:-/tmp}
NAME="touch_dev"
VNAME="touch_dev (touchd)"
SOCK=/tmp/touchd.sock
fail=0
check() { if eval "$2"; then echo "PASS: $1"; else echo "FAIL: $1"; fail=1; fi; }
wait_for() { i=0; while ! eval "$1" && [ $i -lt "$2" ]; do sleep 0.1; i=$((i+1)); done; eval "$1"; }
find_node() { for n in /sys/class/input/event*; do [ "$(cat "$n/device/name" 2>/dev/null)" = "$1" ] && echo /dev/input/${n##*/}; done; }
# libinput's touches still down: downs minus ups and cancels, per libinput slot.
libinput_live() { awk '/TOUCH_DOWN/ { n++ } /TOUCH_UP|TOUCH_CANCEL/ { n-- } END { print n + 0 }' "$1"; }
# touchd's unassigned fingers still down, from an NDJSON stream.
unassigned_live() { awk -F'"finger":' '/"type":"(down|up|cancel)"/ && /"region":null/ { split($2, a, ","); t = $0; sub(/.*"type":"/, "", t); sub(/".*/, "", t); if (t == "down") l[a[1]] = 1; else delete l[a[1]] } END { n = 0; for (k in l) n++; print n }' "$1"; }

# The deployment's rights: the shipped udev rule gives /dev/uinput to the group touchd-uinput, and touchd runs as
# a user in input and touchd-uinput only, as the unit's DynamicUser with SupplementaryGroups= does. vmrun.sh starts
# udevd with --resolve-names=never (no group names in rules at all): it is restarted here to resolve them, as a
# system's udevd does. The initramfs root is 0700: opened up so that a user other than root can run anything.
chmod 755 /
echo 'touchdd:x:61200:61200:touchd daemon:/:/bin/sh' >> /etc/passwd
echo 'touchdd:x:61200:' >> /etc/group
echo 'touchd-uinput:x:990:touchdd' >> /etc/group
sed -i 's/^input:x:101:$/input:x:101:touchdd/' /etc/group
cp $D/60-touchd.rules /etc/udev/rules.d/60-touchd.rules
udevadm control --exit
/usr/lib/systemd/systemd-udevd --daemon --resolve-names=early
udevadm trigger --action=add --subsystem-match=misc --sysname-match=uinput
udevadm settle --timeout=10
check "the shipped rule gives /dev/uinput to touchd-uinput, 0660" "[ \"\$(stat -c '%G %a' /dev/uinput)\" = 'touchd-uinput 660' ]"

evemu-device $D/n4.desc > $W/device.out 2>&1 &
DEVICE=$!
wait_for '[ -n "$(find_node "$NAME")" ]' 100
NODE=$(find_node "$NAME")
udevadm settle --timeout=10
# util-linux's setpriv (busybox's cannot change ids) execs touchd: $! is touchd's pid.
/opt/setpriv --reuid 61200 --regid 61200 --init-groups \
    touchd run --socket $SOCK --config /vm/uinput/config.json --scene /vm/uinput/scene.json --log-level debug \
    2> $W/daemon.log &
TOUCHD=$!
wait_for "[ -S $SOCK ]" 100
grep -E '^(Uid|Groups)' /proc/$TOUCHD/status > $W/daemon-identity.txt
check "touchd runs as touchdd (61200) in the groups input and touchd-uinput only" \
    "grep -q '^Uid:.61200' $W/daemon-identity.txt && [ \"\$(grep '^Groups' $W/daemon-identity.txt | tr -s ' \t' ' ')\" = 'Groups: 101 990 61200 ' ]"
wait_for '[ -n "$(find_node "$VNAME")" ]' 100
VNODE=$(find_node "$VNAME")
check "touchd made the virtual touchscreen '$VNAME' ($VNODE) and grabbed $NODE" \
    "[ -n \"$VNODE\" ] && grep -q \"$NODE .*grabbed, unclaimed fingers to $VNODE\" $W/daemon.log"
udevadm settle --timeout=10
udevadm info --query=property --name="$VNODE" > $W/virtual-udev.txt
check "udev tags the virtual device ID_INPUT_TOUCHSCREEN=1" "grep -qx 'ID_INPUT_TOUCHSCREEN=1' $W/virtual-udev.txt"
SYS=/sys/class/input/${VNODE##*/}/device
check "it has INPUT_PROP_DIRECT" "[ \"\$(cat $SYS/properties)\" = 2 ]"
check "it is not read by touchd itself" "grep -q \"$VNODE .*touchd's own virtual touchscreen\" $W/daemon.log"
cat $SYS/capabilities/abs $SYS/capabilities/key > $W/virtual-capabilities.txt
touchctl --socket $SOCK monitor --raw --events touch,device > $W/client.ndjson 2>&1 &
CLIENT=$!
libinput-debug-events --device "$VNODE" > $W/libinput.txt 2> $W/libinput.err &
LIBINPUT=$!
# A second reader of the real device: touchd grabbed it (evemu-record tries a grab of its own to find out).
evemu-record "$NODE" > $W/real-record.txt 2>&1 &
RECORD=$!
sleep 2

# A. The whole recording.
evemu-play "$NODE" < $D/n4.events
sleep 1.5
check "libinput read the virtual touchscreen as a device" "grep -q DEVICE_ADDED $W/libinput.txt"
check "another reader finds the real device grabbed and gets no event from it" \
    "grep -q 'device is grabbed' $W/real-record.txt && ! grep -q '^E:' $W/real-record.txt"
kill $RECORD 2>/dev/null
wc -l < $W/libinput.txt > $W/libinput.phase-a
wc -l < $W/client.ndjson > $W/client.phase-a
check "no finger left down on the virtual touchscreen after the recording" "[ \$(libinput_live $W/libinput.txt) = 0 ]"

# B. SYN_DROPPED: touchd stopped while the cut recording plays (past the kernel's per-client buffer).
evemu-play "$NODE" < $D/n4-cut.events &
PLAY=$!
sleep 0.8
kill -STOP $TOUCHD
wait $PLAY
kill -CONT $TOUCHD
sleep 1.5
check "the kernel dropped events and touchd resynchronised" "grep -q 'SYN_DROPPED' $W/daemon.log"
HELD=$(unassigned_live $W/client.ndjson)
VIRTUAL=$(libinput_live $W/libinput.txt)
echo "== after the resync: touchd holds $HELD unassigned finger(s), the virtual touchscreen $VIRTUAL"
check "the virtual touchscreen holds exactly touchd's unassigned fingers ($VIRTUAL = $HELD)" "[ $VIRTUAL = $HELD ]"
# Unplug with those fingers down.
kill $DEVICE; wait $DEVICE 2>/dev/null
wait_for '[ -z "$(find_node "$VNAME")" ]' 100
check "removing the real device removed the virtual one" "[ -z \"\$(find_node \"$VNAME\")\" ]"
wait_for "grep -q DEVICE_REMOVED $W/libinput.txt" 50
sed '/DEVICE_REMOVED/,$d' $W/libinput.txt > $W/libinput.before-removal
check "every virtual finger was lifted before the device went ($HELD held)" \
    "[ \$(libinput_live $W/libinput.before-removal) = 0 ] && [ \$(grep -c TOUCH_UP $W/libinput.txt) -gt 0 ]"

# C. No access to /dev/uinput: a device plugged now is read shared (not grabbed), and the failure is logged.
chmod 600 /dev/uinput
evemu-device $D/n4.desc > $W/device2.out 2>&1 &
DEVICE=$!
wait_for '[ -n "$(find_node "$NAME")" ]' 100
NODE=$(find_node "$NAME")
wait_for "grep -q 'cannot create its virtual touchscreen' $W/daemon.log" 100
check "without /dev/uinput access the failure is logged and the device read shared" \
    "grep -q \"$NODE: cannot create its virtual touchscreen: .*ermission denied.*; reading it shared\" $W/daemon.log && grep -q \"$NODE .*touchscreen (pinned by the configuration)\$\" $W/daemon.log"
evemu-record "$NODE" > $W/real-record2.txt 2>&1 &
RECORD=$!
sleep 0.5
evemu-play "$NODE" < $D/n4-cut.events
sleep 0.5
kill $RECORD 2>/dev/null
check "another reader gets the shared device's events, and no virtual device appeared" \
    "grep -q '^E:' $W/real-record2.txt && [ -z \"\$(find_node \"$VNAME\")\" ]"
kill $DEVICE; wait $DEVICE 2>/dev/null
check "the daemon kept running throughout" "kill -0 $TOUCHD"
kill $CLIENT $LIBINPUT 2>/dev/null

# D. touchd stops with fingers down on the virtual touchscreen: each is lifted, then the device goes, and the real
#    device is free again.
chmod 660 /dev/uinput
evemu-device $D/n4.desc > $W/device3.out 2>&1 &
DEVICE=$!
wait_for '[ -n "$(find_node "$NAME")" ]' 100
NODE=$(find_node "$NAME")
wait_for '[ -n "$(find_node "$VNAME")" ]' 100
VNODE=$(find_node "$VNAME")
udevadm settle --timeout=10
libinput-debug-events --device "$VNODE" > $W/libinput-stop.txt 2>&1 &
LIBINPUT=$!
sleep 2
evemu-play "$NODE" < $D/n4-cut.events
sleep 0.5
HELD=$(libinput_live $W/libinput-stop.txt)
kill $TOUCHD
wait $TOUCHD 2>/dev/null
wait_for "grep -q DEVICE_REMOVED $W/libinput-stop.txt" 50
sed '/DEVICE_REMOVED/,$d' $W/libinput-stop.txt > $W/libinput-stop.before-removal
check "stopping touchd lifts the $HELD virtual finger(s) the cut recording leaves down, then removes the device" \
    "[ $HELD -gt 0 ] && [ \$(libinput_live $W/libinput-stop.before-removal) = 0 ] && [ -z \"\$(find_node \"$VNAME\")\" ]"
evemu-record "$NODE" > $W/real-record3.txt 2>&1 &
RECORD=$!
sleep 0.3
evemu-play "$NODE" < $D/n4-cut.events
sleep 0.3
kill $RECORD $LIBINPUT $DEVICE 2>/dev/null
check "the real device is no longer grabbed" "grep -q '^E:' $W/real-record3.txt && ! grep -q 'device is grabbed' $W/real-record3.txt"
head -n 5 $W/libinput.err
echo "---- daemon log"; grep -v '^<7>' $W/daemon.log | head -20
exit $fail
