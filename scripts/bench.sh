#!/usr/bin/env bash
# The benchmarks of docs/performance.md, in release builds, printed as one table.
#   scripts/bench.sh            full run (about 2 minutes here)
#   scripts/bench.sh --smoke    seconds, small sizes, no thresholds: CI runs this so the benchmarks keep working
#   scripts/bench.sh --live     also benchmark 6: touchd against libinput debug-events on a real kernel (qemu)
set -euo pipefail
cd "$(dirname "$0")/.."
SMOKE=0
LIVE=0
[ "${1:-}" = "--smoke" ] && SMOKE=1
[ "${1:-}" = "--live" ] && LIVE=1
if ! pkg-config --exists evemu 2>/dev/null || ! command -v gcc >/dev/null; then
    sudo_cmd=(); [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends libevemu-dev gcc libc6-dev >/dev/null
fi
swift build -c release --static-swift-stdlib --product touchd 2>&1 | grep -E "error|Compiling touchd|Build of" | tail -n 1
swift build -c release --product touchd-bench 2>&1 | tail -n 1
BENCH=.build/release/touchd-bench
TOUCHD=$(pwd)/.build/release/touchd
WORK=$(mktemp -d /tmp/touchd-bench.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
gcc -O2 -o "$WORK/evemu-parse" scripts/bench/evemu-parse.c $(pkg-config --cflags --libs evemu)

if [ $SMOKE = 1 ]; then
    EVENTS=50000; RUNS=1; QUERIES=2000; FANOUT_CLIENTS="1 10"; FANOUT_SECONDS=1; IDLE_SECONDS=2
else
    EVENTS=1000000; RUNS=3; QUERIES=20000; FANOUT_CLIENTS="1 10 100"; FANOUT_SECONDS=5; IDLE_SECONDS=10
fi
# The 10-contact Atmel maXTouch and the 4-contact Nexus 4 recordings, or the demo where shared/ is absent.
R=../shared/recordings
INPUTS=("$R/tslib/Atmel_maXTouch_Touchscreen.ts-verify-1.events" "$R/xorg-integration-tests/touchscreens/n4.events")
[ -f "${INPUTS[0]}" ] || INPUTS=(config/demo/panel.evemu)
"$BENCH" make-looped "$WORK/looped.evemu" "$WORK/looped.raw" "$EVENTS" "${INPUTS[@]}" >/dev/null

table=()
row() { table+=("$(printf '%-44s %s' "$1" "$2")"); }

# 1. Whole pipeline against libevemu's parse, same file, alternating runs; the best of each.
best_touchd=0; best_evemu=0
for _ in $(seq $RUNS); do
    e=$("$WORK/evemu-parse" "$WORK/looped.evemu" | awk '{print $5}')
    t=$("$BENCH" pipeline "$WORK/looped.evemu" 50 | awk '{print $6}')
    best_evemu=$(awk -v a="$best_evemu" -v b="$e" 'BEGIN{print (b>a)?b:a}')
    best_touchd=$(awk -v a="$best_touchd" -v b="$t" 'BEGIN{print (b>a)?b:a}')
done
row "1. pipeline (parse+decode+dispatch+NDJSON)" "$(awk -v v="$best_touchd" 'BEGIN{printf "%.2f M events/s", v/1e6}')"
row "1. libevemu parse alone" "$(awk -v v="$best_evemu" 'BEGIN{printf "%.2f M events/s", v/1e6}')"
row "1. ratio touchd / libevemu (target >= 2)" "$(awk -v a="$best_touchd" -v b="$best_evemu" 'BEGIN{printf "%.2f", a/b}')"
# 2. Decoder alone.
d=$("$BENCH" decoder "$WORK/looped.raw" "$WORK/looped.evemu")
row "2. decoder alone" "$(echo "$d" | awk '{printf "%.1f M events/s, %s ns/event, %s allocations/frame", $6/1e6, $8, $10}')"
# 3. Hit tests.
while read -r line; do
    row "3. hit test, $(echo "$line" | awk '{print $2}') regions" "$(echo "$line" | awk '{printf "grid p50 %s p99 %s ns; scan p50 %s p99 %s ns; %s", $6, $9, $13, $16, $20}')"
done < <("$BENCH" hittest "$QUERIES")
# 4. Fan-out.
for n in $FANOUT_CLIENTS; do
    f=$("$BENCH" fanout "$TOUCHD" "$n" 240 "$FANOUT_SECONDS")
    row "4. fan-out, 10 fingers x 240 Hz, $n client(s)" "$(echo "$f" | awk '{printf "lost %s of %s; latency p50 %s us p99 %s us; daemon cpu %s %%", $9, $5, $12, $15, $18}')"
done
# 5. Idle.
i=$("$BENCH" idle "$TOUCHD" "$(pwd)/config/demo/panel.evemu" "$IDLE_SECONDS")
row "5. idle, 1 device, 2 clients, ${IDLE_SECONDS} s" "$(echo "$i" | awk '{printf "%s wake-ups %s, RSS %s kB", $5, $6, $8}')"

# 6. Live, on a real kernel, against libinput (asked for with --live).
if [ $LIVE = 1 ]; then
    command -v evemu-device >/dev/null && [ -x /usr/libexec/libinput/libinput-debug-events ] || {
        sudo_cmd=(); [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
        DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends evemu-tools libinput-tools >/dev/null
    }
    swift build -c release --static-swift-stdlib --product touchctl 2>&1 | tail -n 1
    mkdir -p "$WORK/live"
    "$BENCH" make-fingers "$WORK/live/fingers.evemu" 240 20 >/dev/null
    echo '{"size": [1920, 1080], "regions": [{"id": "all", "frame": [0, 0, 1920, 1080], "gestures": ["drag", "pinch"]}]}' > "$WORK/live/scene.json"
    bash ../shared/vm/vmrun.sh -q -t 400 -o "$WORK/live-out" --udev -b "$TOUCHD" -b "$(pwd)/.build/release/touchctl" \
        -b /usr/libexec/libinput/libinput-debug-events -b evemu-device -b evemu-play -f /usr/share/libinput:/usr/share/libinput \
        -f "$(pwd)/Tests/vm:/vm" -f "$WORK/live:/touchd" -- /vm/guest-libinput.sh >/dev/null
    cpu=$(grep '^cpu' "$WORK/live-out/stdout")
    row "6. live (qemu), 10 fingers x 240 Hz for 20 s" "$(echo "$cpu" | awk '{printf "CPU touchd %s ms, libinput %s ms, ratio %.2f", $3, $6, $3/$6}')"
fi

echo
echo "touchd benchmarks ($( [ $SMOKE = 1 ] && echo smoke || echo full ) run, $(nproc) cores, $(date -u +%Y-%m-%d))"
printf '%s\n' "${table[@]}"
