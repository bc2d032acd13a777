#!/usr/bin/env bash
# Runs touchd on a real Linux kernel with uinput (../shared/vm/vmrun.sh, qemu), touchscreens created and driven
# by Debian's evemu-tools: the daemon once without and once with udevd (Tests/vm/guest-daemon.sh), then the
# deployment: udev rule, list-devices, sd_notify and socket activation, record and replay round trip
# (Tests/vm/guest-deploy.sh), then faults: a real SYN_DROPPED, unplug mid-touch and replug (Tests/vm/guest-faults.sh),
# then the virtual touchscreen of forwardUnclaimed read by libinput (Tests/vm/guest-uinput.sh; judged against the
# recording on the host by Tests/vm/uinput-check.py), then two touchscreens on a two-output virtio-vga whose EDIDs
# qemu makes, each mapped to its own monitor by "output": "auto" (Tests/vm/guest-outputs.sh);
# then gestures taking their fingers back from libinput, and a palm by size cancelled (Tests/vm/guest-coexist.sh);
# last, the system calls a frame on the live path under strace (Tests/vm/guest-syscalls.sh: at most 3.2).
# Skips, saying so, where the VM harness is absent (a user's checkout).
# VM_GUESTS="deploy faults" runs only those guests.
set -euo pipefail
cd "$(dirname "$0")/.."
VMRUN=${VMRUN:-$(pwd)/../shared/vm/vmrun.sh}
if [ ! -x "$VMRUN" ] && [ ! -f "$VMRUN" ]; then
    echo "vm-test: $VMRUN not found: real-kernel tests skipped"
    exit 0
fi
command -v gcc >/dev/null || {
    sudo_cmd=(); [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends gcc libc6-dev >/dev/null
}
# libinput-tools: the uinput guest reads touchd's virtual touchscreen with libinput debug-events.
[ -x /usr/libexec/libinput/libinput-debug-events ] || {
    sudo_cmd=(); [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends libinput-tools >/dev/null
}
command -v evemu-device >/dev/null || {
    sudo_cmd=(); [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends evemu-tools >/dev/null
}
# strace: the system-call guest counts the daemon's calls with it.
command -v strace >/dev/null || {
    sudo_cmd=(); [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends strace >/dev/null
}
swift build -c release --static-swift-stdlib --product touchd 2>&1 | tail -n 1
swift build -c release --static-swift-stdlib --product touchctl 2>&1 | tail -n 1
HARNESS=$(mktemp -d /tmp/touchd-harness.XXXXXX)/notify-harness
gcc -O2 -Wall -o "$HARNESS" Tests/vm/notify-harness.c
OUT=${VM_OUT:-$(mktemp -d /tmp/touchd-vm.XXXXXX)}
status=0
# Three guests: the daemon without and with udevd, then the deployment (units, rules, tools) with udevd.
STAGE=$(mktemp -d /tmp/touchd-stage.XXXXXX)
cp -r config/demo "$STAGE/demo"
cp -r config "$STAGE/config"
cp -r systemd "$STAGE/systemd"
# The deployment guest's timing check: an evemu-record file of a real touchscreen.
cp ../shared/recordings/tslib/evemu_maxtouch_rec_skip "$STAGE/held-out.evemu"
# The faults guest: the Nexus 4 recording cut where three fingers are down (at a frame boundary past 55 %).
FAULTS=$(mktemp -d /tmp/touchd-faults.XXXXXX)
N4=../shared/recordings/xorg-integration-tests/touchscreens
cp "$N4/n4.desc" "$FAULTS/"
total=$(wc -l < "$N4/n4.events")
cut=$(awk -v t="$total" 'NR > t * 0.55 && / 0000 0000 0000$/ { print NR; exit }' "$N4/n4.events")
head -n "$cut" "$N4/n4.events" > "$FAULTS/n4-cut.events"
# And a drop mid-stroke: a second panel like the Nexus 4 (its own name), three fingers held 4 s at 200 Hz, each
# moving 3 units a frame down its own column, then all lifted.
sed 's/^N: .*/N: held_dev/' "$N4/n4.desc" > "$FAULTS/held.desc"
awk 'BEGIN {
    for (f = 0; f < 800; f++) {
        us = f * 5000
        at = sprintf("E: %d.%06d", int(us / 1000000), us % 1000000)
        for (k = 0; k < 3; k++) {
            printf "%s 0003 002f %d\n", at, k
            if (f == 0) printf "%s 0003 0039 %d\n%s 0003 003a 50\n", at, 100 + k, at
            if (f == 799) { printf "%s 0003 0039 -1\n", at; continue }
            printf "%s 0003 0035 %d\n%s 0003 0036 %d\n", at, 300 + 400 * k, at, 100 + 3 * f
        }
        printf "%s 0000 0000 0\n", at
    }
}' > "$FAULTS/held.events"
# The uinput guest: the whole Nexus 4 recording, and the same cut for SYN_DROPPED and unplug.
UINPUT=$(mktemp -d /tmp/touchd-uinput.XXXXXX)
cp "$N4/n4.desc" "$N4/n4.events" "$FAULTS/n4-cut.events" systemd/60-touchd.rules "$UINPUT/"
# The uinput guest's part A is judged here, against the recording (Tests/vm/uinput-check.py); its lines join the
# guest's, so the closing count includes them.
uinput_check() {
    local files="$OUT/uinput/files"
    python3 Tests/vm/uinput-check.py --desc "$UINPUT/n4.desc" --events "$UINPUT/n4.events" --edge 400 \
        --libinput "$files/libinput.txt" --libinput-lines "$(cat "$files/libinput.phase-a")" \
        --client "$files/client.ndjson" --client-lines "$(cat "$files/client.phase-a")" \
        --cut-events "$UINPUT/n4-cut.events" --cut-libinput "$files/libinput-stop.txt" | tee -a "$OUT/uinput/stdout"
    return "${PIPESTATUS[0]}"
}
# The outputs guest: two touchscreens the sizes of qemu's two outputs, with the config and scene of their layout.
OUTPUTS=$(mktemp -d /tmp/touchd-outputs.XXXXXX)
sh Tests/vm/make-outputs-devices.sh "$OUTPUTS"
# The coexistence guest: the Nexus 4's description and the kiosk scene of docs/kiosk.md (a).
COEXIST=$(mktemp -d /tmp/touchd-coexist.XXXXXX)
cp "$N4/n4.desc" config/kiosk/browser.json "$COEXIST/"
# And a palm by size (palmSize 4 in Tests/vm/coexist/config.json): the Nexus 4 recording's first touch, up to the
# frame of its lift, its first ABS_MT_TOUCH_MAJOR made 4 instead of 5, so that it goes down a finger and becomes a
# palm where the recording grows it back to 5 (the stream of PalmFrameTests). palm.expected, from the stream:
# the frames after the down and before the palm frame that move (libinput's motions), the last position before the
# palm frame, and the palm frame's position.
awk '{ print } / 0003 0039 -0*1$/ { lifted = 1 } lifted && / 0000 0000 0+$/ { exit }' "$N4/n4.events" \
    | awk '!done && $4 == "0030" { $5 = "0004"; done = 1 } { print }' > "$COEXIST/palm.events"
awk '$3 == "0003" && $4 == "0035" { x = $5 + 0; moved = 1 }
    $3 == "0003" && $4 == "0036" { y = $5 + 0; moved = 1 }
    $3 == "0003" && $4 == "0030" { major = $5 + 0 }
    $3 == "0000" && $4 == "0000" {
        if (major > 4) { print motions; print lx, ly; print x, y; exit }
        if (frames > 0 && moved) motions++
        frames++; moved = 0; lx = x; ly = y
    }' "$COEXIST/palm.events" > "$COEXIST/palm.expected"
for mode in ${VM_GUESTS:-plain udev deploy faults uinput outputs coexist syscalls}; do
    extra=()
    if [ "$mode" = udev ] || [ "$mode" = deploy ] || [ "$mode" = uinput ] || [ "$mode" = coexist ]; then
        extra=(--udev)
    fi
    # The deployment guest measures the gaps evemu-play leaves between frames on a virtual clock that
    # counts guest instructions: on the wall clock, TCG's sleeps overshoot by 0.2-6 ms when the host is busy.
    if [ "$mode" = deploy ]; then extra+=(--accel tcg --qemu-arg -icount --qemu-arg shift=0,sleep=off); fi
    # virtio-vga with two outputs, qemu's EDID on each; `video=Virtual-2:e` turns the second on (qemu enables only
    # the first until a display UI asks for more).
    if [ "$mode" = outputs ]; then
        extra=(-m virtio_gpu --qemu-arg -device --qemu-arg virtio-vga,edid=on,xres=1920,yres=1080,max_outputs=2
            --append video=Virtual-2:e)
    fi
    script=/vm/guest-daemon.sh
    files=(-f "$(pwd)/config/demo:/touchd")
    if [ "$mode" = deploy ]; then
        script=/vm/guest-deploy.sh
        files=(-f "$STAGE:/touchd")
    elif [ "$mode" = faults ]; then
        script=/vm/guest-faults.sh
        files=(-f "$FAULTS:/touchd")
    elif [ "$mode" = outputs ]; then
        script=/vm/guest-outputs.sh
        files=(-f "$OUTPUTS:/touchd")
    elif [ "$mode" = uinput ]; then
        script=/vm/guest-uinput.sh
        files=(-f "$UINPUT:/touchd" -b /usr/libexec/libinput/libinput-debug-events -b evemu-record
            -f /usr/share/libinput:/usr/share/libinput -f /usr/bin/setpriv:/opt/setpriv)
    elif [ "$mode" = coexist ]; then
        script=/vm/guest-coexist.sh
        files=(-f "$COEXIST:/touchd" -b /usr/libexec/libinput/libinput-debug-events
            -f /usr/share/libinput:/usr/share/libinput)
    elif [ "$mode" = syscalls ]; then
        script=/vm/guest-syscalls.sh
        files=(-f "$UINPUT:/touchd" -b strace)
    fi
    arguments=("$mode")
    # The system-call guest takes the binaries to measure: the touchd built here, on the guest's PATH.
    [ "$mode" = syscalls ] && arguments=(touchd)
    echo "---- real kernel, $mode"
    if bash "$VMRUN" -q -t 300 -o "$OUT/$mode" "${extra[@]}" \
        -b "$(pwd)/.build/release/touchd" -b "$(pwd)/.build/release/touchctl" -b "$HARNESS" -b evemu-device -b evemu-play \
        -f "$(pwd)/Tests/vm:/vm" "${files[@]}" -- "$script" "${arguments[@]}"; then
        grep -E '^(PASS|FAIL)' "$OUT/$mode/stdout" || true
        if [ "$mode" = uinput ]; then uinput_check || status=1; fi
    else
        status=1
        grep -E '^(PASS|FAIL)' "$OUT/$mode/stdout" || true
        echo "vm-test: $mode failed; guest output in $OUT/$mode"
        tail -n 40 "$OUT/$mode/stdout" || true
    fi
done
# The plain closing line CI reads.
passed=$(cat "$OUT"/*/stdout 2>/dev/null | grep -c '^PASS' || true)
failed=$(cat "$OUT"/*/stdout 2>/dev/null | grep -c '^FAIL' || true)
echo "vm: $passed passed, $failed failed"
exit $status
