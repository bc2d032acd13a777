#!/usr/bin/env bash
# Jitter, lag and output volume of touchd's position filters on real recordings (docs/decoding.md, "Jitter:
# measured"): for each recording, `touchd replay --filter off|fuzz|one-euro`, then scripts/jitter_measure.py.
#   scripts/jitter-measure.sh           in-process: the recordings as the files hold them
#   scripts/jitter-measure.sh --live    also libinput, on a real kernel (../shared/vm/vmrun.sh, qemu, --udev):
#       each stream is played into a uinput device with evemu-play while evemu-record (what the kernel delivers,
#       after its own fuzz filter) and `libinput debug-events` read it; touchd's rows are then computed on the
#       kernel's stream, so all four columns see the same input. About a minute. Fails (exit 1) unless the default
#       filter's jitter and lag on each live stream are at most libinput's (plus 0.05 device units).
# TOUCHD: the touchd binary (default .build/release/touchd, built if missing).
set -euo pipefail
cd "$(dirname "$0")/.."
R=${TOUCHD_RECORDINGS:-../shared/recordings}
TOUCHD=${TOUCHD:-$(pwd)/.build/release/touchd}
LIVE=0
case "${1:-}" in
    "") ;;
    --live) LIVE=1 ;;
    *) echo "usage: scripts/jitter-measure.sh [--live]" >&2; exit 2 ;;
esac
[ -x "$TOUCHD" ] || nice -n 10 swift build -c release --static-swift-stdlib --product touchd 2>&1 | tail -n 1
WORK=$(mktemp -d /tmp/touchd-jitter.XXXXXX)
[ -n "${JITTER_KEEP:-}" ] || trap 'rm -rf "$WORK"' EXIT

# The device's axes from the replay summary ("x 0...9600, y 0...7200"): LO_X HI_X LO_Y HI_Y.
axes() { "$TOUCHD" replay "$1" "${DESC_ARGS[@]}" --filter off 2>&1 >/dev/null | sed -n 's/.*, x \(-\{0,1\}[0-9]*\)\.\.\.\([0-9]*\), y \(-\{0,1\}[0-9]*\)\.\.\.\([0-9]*\).*/\1 \2 \3 \4/p'; }

measure() {  # LABEL FILE [LIBINPUT.txt]
    local label=$1 file=$2 libinput=${3:-}
    DESC_ARGS=()
    [ -n "${DESC:-}" ] && DESC_ARGS=(--desc "$DESC")
    read -r lx hx ly hy < <(axes "$file")
    local diagonal
    diagonal=$(awk -v a="$lx" -v b="$hx" -v c="$ly" -v d="$hy" 'BEGIN{print sqrt((b-a)^2 + (d-c)^2)}')
    for filter in off fuzz one-euro; do
        "$TOUCHD" replay "$file" "${DESC_ARGS[@]}" --filter "$filter" -q > "$WORK/$label.$filter.ndjson"
    done
    local extra=()
    # Live, the default filter must not be worse than libinput on the same stream (jitter_measure.py says which).
    [ -n "$libinput" ] && extra=(--libinput "$libinput" --require-parity fuzz)
    python3 scripts/jitter_measure.py --label "$label" --diagonal "$diagonal" "none=$WORK/$label.off.ndjson" \
        "fuzz=$WORK/$label.fuzz.ndjson" "one-euro=$WORK/$label.one-euro.ndjson" "${extra[@]}"
}

MTB=$R/chromiumos-firmware_TouchMTB/converted-evemu/data
echo "in process (the files as recorded): jitter and wiggle on still stretches, lag on fast frames, device units"
measure ntrig-taps "$R/evemu/ntrig-xt2-4-tap.event"
measure n4 "$R/xorg-integration-tests/touchscreens/n4.events"
measure atmel "$R/tslib/Atmel_maXTouch_Touchscreen.ts-verify-1.events"
measure cyan-tap "$R/chromiumos-autotest/touch_TouchscreenTaps/cyan_touchscreen_0d10_tap"
measure noise-still "$MTB/noise_stationary_extended.evemu"
measure long-hold "$MTB/two_finger_long_hold.evemu"

[ $LIVE = 1 ] || exit 0
VMRUN=${VMRUN:-$(pwd)/../shared/vm/vmrun.sh}
[ -f "$VMRUN" ] || { echo "jitter-measure: $VMRUN not found: the libinput column is not measured"; exit 0; }
# Debian's evemu-tools (evemu-device, -play, -record) and libinput-tools (debug-events, the udev rule's helpers).
missing=()
for package in evemu-tools libinput-tools; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    sudo_cmd=(); [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
    export DEBIAN_FRONTEND=noninteractive
    "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null 2>&1 || {
        "${sudo_cmd[@]}" apt-get update -qq >/dev/null
        "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    }
fi
mkdir -p "$WORK/live"
cp "$R/evemu/ntrig-xt2.device" "$R/evemu/ntrig-xt2-4-tap.event" "$R/evemu/wetab.prop" "$R/evemu/wetab.event" \
    "$R/xorg-integration-tests/touchscreens/n4.desc" "$R/xorg-integration-tests/touchscreens/n4.events" "$WORK/live/"
cp "$R/tslib/Atmel_maXTouch_Touchscreen.ts-verify-1.events" "$WORK/live/atmel.evemu"
# LABEL|DESCRIPTION|EVENTS: protocol A with fuzz (N-Trig), protocol B with fuzz (WeTab), no fuzz (Nexus 4, Atmel).
printf '%s\n' "ntrig-taps|ntrig-xt2.device|ntrig-xt2-4-tap.event" "wetab|wetab.prop|wetab.event" \
    "n4|n4.desc|n4.events" "atmel|atmel.evemu|atmel.evemu" > "$WORK/live/streams.txt"
# libinput's udev rule moves a touchscreen's fuzz from the kernel to LIBINPUT_FUZZ_* (so the kernel does not filter
# and libinput's hysteresis does), through two helper programs the guest needs as on a real system.
bash "$VMRUN" -q -t 300 -o "$WORK/vm" --udev -b evemu-device -b evemu-play -b evemu-record \
    -b /usr/libexec/libinput/libinput-debug-events -f /usr/share/libinput:/usr/share/libinput \
    -b /usr/lib/udev/libinput-fuzz-extract -b /usr/lib/udev/libinput-fuzz-to-zero \
    -f /usr/lib/udev/rules.d/90-libinput-fuzz-override.rules:/etc/udev/rules.d/90-libinput-fuzz-override.rules \
    -f "$(pwd)/Tests/vm:/vm" -f "$WORK/live:/touchd" -- /vm/guest-jitter.sh > /dev/null \
    || { echo "live run failed:" >&2; cat "$WORK/vm/stdout" "$WORK/vm/stderr" >&2 || true; exit 1; }
echo
echo "on a real kernel (the kernel's stream as evemu-record read it, and libinput debug-events on the same device)"
# libinput's udev rule zeroed the kernel's fuzz, so evemu-record wrote fuzz 0: touchd reads the stream with the
# description the device declares (its events only, with --desc), as the daemon does from LIBINPUT_FUZZ_*.
streams=0
failed=()
while read -r word label _; do
    [ "$word" = stream ] || continue
    desc=$(grep "^$label|" "$WORK/live/streams.txt" | cut -d'|' -f2)
    grep '^E:' "$WORK/vm/files/$label-kernel.evemu" > "$WORK/$label-kernel.events"
    DESC="$WORK/live/$desc" measure "$label" "$WORK/$label-kernel.events" "$WORK/vm/files/$label-libinput.txt" \
        || failed+=("$label")
    streams=$((streams + 1))
done < "$WORK/vm/stdout"
# Each of the four streams must have come back from the guest, and each met parity.
[ "$streams" -eq 4 ] || { echo "jitter-measure: $streams of 4 live streams measured" >&2; exit 1; }
[ ${#failed[@]} -eq 0 ] || { echo "jitter-measure: the default filter is worse than libinput on: ${failed[*]}" >&2; exit 1; }
echo "jitter-measure: on all 4 live streams the default filter's jitter and lag are within 0.05 units of libinput's or below"
