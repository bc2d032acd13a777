#!/bin/sh
# Runs INSIDE the vmrun.sh guest with --udev: touchd deployed as its systemd unit would run it, as far as a
# guest without systemd allows. notify-harness plays systemd: it passes the listening socket (touchd.socket) and
# a watchdog, and logs sd_notify messages.
#  1. The shipped udev rule tags the touchscreen; a local rule sets LIBINPUT_CALIBRATION_MATRIX.
#  2. touchd list-devices names the uinput touchscreen a touchscreen (with its calibration) and the keyboard not.
#  3. READY=1 arrives only once the device is open and the socket listens; WATCHDOG=1 follows; STOPPING=1 at the end.
#  4. touchd record of the device driven by evemu-play; Debian's evemu-device + evemu-play replay that file;
#     touchd's stream is the same as the first time.
#  5. Timing: a held-out evemu-record file (tslib's maXTouch, staged as held-out.evemu) played into a
#     uinput device while touchd records it, then touchd's file played by evemu-play into a new device while
#     touchd records again. Every gap between SYN_REPORTs, the first included, stays within 1 ms.
set -u
D=/touchd
W=${VMRUN_OUT:-/tmp}
NAME="touchd demo panel"
SOCK=/run/touchd/touchd.sock
fail=0
say() { echo "== $*"; }
check() { if eval "$2"; then echo "PASS: $1"; else echo "FAIL: $1"; fail=1; fi; }
wait_for() { i=0; while ! eval "$1" && [ $i -lt "$2" ]; do sleep 0.1; i=$((i+1)); done; eval "$1"; }
find_node() {  # prints the event node of the demo panel that is not $1
    for n in /sys/class/input/event*; do
        node=/dev/input/${n##*/}
        [ "$(cat "$n/device/name" 2>/dev/null)" = "$NAME" ] && [ "$node" != "${1:-}" ] && echo "$node"
    done
}
find_named() {  # prints the event node of the device called $1
    for n in /sys/class/input/event*; do [ "$(cat "$n/device/name" 2>/dev/null)" = "$1" ] && echo "/dev/input/${n##*/}"; done
}
# The gaps between SYN_REPORTs of an evemu file, in µs, one a line (sed: busybox awk reads 0-padded digits as octal).
gaps() {
    sed -n -E 's/^E: ([0-9]+)\.0*([0-9]+) 0000 0000 0000.*/\1 \2/p' "$1" |
        awk '{ t = $1 * 1000000 + $2 } NR > 1 { print t - prev } { prev = t }'
}
# $1 = the gaps of a file, $2 = of evemu-play playing it, $3 = of evemu-play playing $2's recording. What evemu-play
# adds to each gap of evemu-record's file ($2 - $1) it must add to touchd's ($3 - $2), within 1 ms: under the VM's
# instruction clock it stretches the first gap of any file by about 1 ms. Prints the table; fails when the gap counts
# differ or one gap is off.
paced_alike() {
    awk 'FNR == 1 { f++ } { g[f, FNR] = $1; n[f] = FNR }
        END { bad = !(n[1] > 0 && n[1] == n[2] && n[2] == n[3])
              for (i = 1; i <= n[1]; i++) {
                  a = g[2, i] - g[1, i]; b = g[3, i] - g[2, i]; d = b - a; if (d < 0) d = -d; if (d > 1000) bad = 1
                  printf "   gap %d: %d us; played %d (%+d); touchd file played %d (%+d)%s\n", i, g[1, i], g[2, i], a, g[3, i], b, (d > 1000 ? "  <--" : "")
              }
              exit bad }' "$1" "$2" "$3"
}
norm() { sed -E 's/"time_us":[0-9]+,?//; s/"device":"[^"]*",?//; s/"since_down_us":[0-9]+,//; s/"taps":[0-9]+,//; s/"finger":[0-9]+,//' "$1"; }

# 1. udev rules: the shipped one, and a local calibration for the demo panel.
cp $D/systemd/60-touchd.rules /etc/udev/rules.d/60-touchd.rules
echo 'ATTRS{name}=="touchd demo panel", ENV{LIBINPUT_CALIBRATION_MATRIX}="0 -1 1 1 0 0"' > /etc/udev/rules.d/61-touchd-local.rules
udevadm control --reload
evemu-device $D/demo/panel.evemu > $W/device1.out 2>&1 &
DEVICE1=$!
wait_for '[ -n "$(find_node)" ]' 100
NODE=$(find_node)
udevadm settle --timeout=10
say "touchscreen $NODE"
udevadm info "$NODE" > $W/udevinfo.txt
check "the rule tags it for touchd" "grep -q 'TOUCHD_DEVICE=1' $W/udevinfo.txt && grep -q 'TAGS=.*:touchd:' $W/udevinfo.txt"
check "the local rule sets its calibration" "grep -q 'LIBINPUT_CALIBRATION_MATRIX=0 -1 1 1 0 0' $W/udevinfo.txt"

# 2. list-devices.
touchd list-devices > $W/list-devices.txt 2>&1
check "list-devices: the uinput panel is a touchscreen through udev" \
    "grep -A1 \"^$NODE  \\\"$NAME\\\"\" $W/list-devices.txt | grep -q 'touchscreen: yes (udev: ID_INPUT_TOUCHSCREEN=1)'"
check "list-devices: its calibration comes from udev" "grep -q 'calibration: 0 -1 1 1 0 0 (udev LIBINPUT_CALIBRATION_MATRIX)' $W/list-devices.txt"
check "list-devices: the keyboard is not a touchscreen" \
    "grep -A1 'AT Translated Set 2 keyboard' $W/list-devices.txt | grep -q 'touchscreen: no'"

# 3. The daemon as the unit starts it (socket activation, notify, watchdog), with the shipped configuration's shape.
mkdir -p /run/touchd /etc/touchd
sed 's|"/etc/touchd/scene.json"|"/touchd/demo/scene.json"|; s|"group": "touchd"|"group": "root"|' $D/config/touchd.json > /etc/touchd/touchd.json
notify-harness --listen $SOCK --watchdog-usec 2000000 $W/notify.log -- touchd run --config /etc/touchd/touchd.json 2> $W/daemon.log &
HARNESS=$!
check "READY=1 arrives" "wait_for 'grep -q READY=1 $W/notify.log 2>/dev/null' 100"
check "READY=1 is the first message and says the device is open" "head -1 $W/notify.log | grep -q 'READY=1|STATUS=1 device(s), 0 client(s)'"
check "the daemon used the passed socket" "grep -q '(socket activation)' $W/daemon.log"
check "the socket answers once READY" "touchctl --socket $SOCK ping"
check "the watchdog is fed" "wait_for 'grep -q WATCHDOG=1 $W/notify.log' 30"

# 4. Record while playing, with a client watching.
touchd replay $D/demo/panel.evemu --scene $D/demo/scene.json --calibration "0 -1 1 1 0 0" -q | grep -v '"type":"gesture"' > $W/expected.ndjson
N=$(wc -l < $W/expected.ndjson)
touchctl --socket $SOCK monitor --raw --events touch,frame,region --count "$N" > $W/live1.ndjson 2>&1 &
MONITOR=$!
touchd record "$NODE" -o $W/recorded.evemu 2> $W/record.err &
RECORDER=$!
sleep 0.5
evemu-play "$NODE" < $D/demo/panel.evemu
sleep 0.3
kill -INT $RECORDER; wait $RECORDER
wait_for "! kill -0 $MONITOR 2>/dev/null" 100
check "the first stream is what touchd replay gives (calibration included)" "norm $W/expected.ndjson > $W/e.norm; norm $W/live1.ndjson > $W/1.norm; cmp -s $W/e.norm $W/1.norm"
touchd describe $W/recorded.evemu > $W/describe.txt 2>&1
check "the recording holds the 10 touches" "grep -q 'fingers: 10, max simultaneous: 3' $W/describe.txt"

# Replay touchd's file with Debian's own tools into a new device.
kill $DEVICE1; wait $DEVICE1 2>/dev/null
check "touchd notices the first device leave" "wait_for 'grep -q \"$NODE: .*cancelled\" $W/daemon.log' 100"
evemu-device $W/recorded.evemu > $W/device2.out 2>&1 &
DEVICE2=$!
wait_for '[ -n "$(find_node)" ]' 100
NODE2=$(find_node)
udevadm settle --timeout=10
check "evemu-device made a device from touchd's recording" "[ -n '$NODE2' ]"
check "touchd picked up the second device" "wait_for 'grep -q \"$NODE2 .*touchscreen\" $W/daemon.log' 100"
touchctl --socket $SOCK monitor --raw --events touch,frame,region --count "$N" > $W/live2.ndjson 2>&1 &
MONITOR=$!
sleep 0.5
evemu-play "$NODE2" < $W/recorded.evemu
wait_for "! kill -0 $MONITOR 2>/dev/null" 100
check "the round trip through evemu-device and evemu-play gives the same stream" "norm $W/live2.ndjson > $W/2.norm; cmp -s $W/1.norm $W/2.norm"
[ -s $W/2.norm ] && ! cmp -s $W/1.norm $W/2.norm && diff $W/1.norm $W/2.norm | head -10

kill -TERM $HARNESS; wait $HARNESS
check "STOPPING=1 is the last message" "tail -1 $W/notify.log | grep -q STOPPING=1"
kill $DEVICE2 2>/dev/null; wait $DEVICE2 2>/dev/null

# 5. Timing through touchd record and evemu-play.
HELD="Atmel maXTouch Touchscreen"
say "timing: $D/held-out.evemu"
record_play() {  # $1 = file to create the device from and play, $2 = touchd's recording
    evemu-device "$1" > $W/device-timing.out 2>&1 &
    dev=$!
    wait_for '[ -n "$(find_named "$HELD")" ]' 100
    node=$(find_named "$HELD")
    udevadm settle --timeout=10
    touchd record "$node" -o "$2" 2>> $W/record.err &
    rec=$!
    sleep 0.5
    evemu-play "$node" < "$1"
    sleep 0.3
    kill -INT $rec; wait $rec
    kill $dev; wait $dev 2>/dev/null
    wait_for '[ -z "$(find_named "$HELD")" ]' 100
}
record_play $D/held-out.evemu $W/held-recorded.evemu
record_play $W/held-recorded.evemu $W/held-replayed.evemu
gaps $D/held-out.evemu > $W/gaps-original.txt
gaps $W/held-recorded.evemu > $W/gaps-recorded.txt
gaps $W/held-replayed.evemu > $W/gaps-replayed.txt
check "touchd record stamps its first event 0.000001, as evemu-record does" \
    "grep -m1 '^E:' $W/held-recorded.evemu | grep -q '^E: 0.000001 '"
check "evemu-play keeps every gap of touchd's recording, the first included, as it keeps evemu-record's (1 ms)" \
    "paced_alike $W/gaps-original.txt $W/gaps-recorded.txt $W/gaps-replayed.txt"

echo "---- notify log"; head -5 $W/notify.log
echo "---- daemon log"; cat $W/daemon.log
exit $fail
