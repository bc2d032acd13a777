#!/usr/bin/env bash
# Builds the libFuzzer package (Tests/Fuzz) and runs each target for SECONDS (default 60), seeded from
# ../shared/recordings, the docs' examples and config/. A crash leaves crash-* files in $OUT and fails.
# The binary's custom mutator (Tests/Fuzz/Sources/touchd-fuzz/TimeMutator.swift) pushes timestamps to extremes.
#   scripts/fuzz.sh 1800        # half an hour a target
#   scripts/fuzz.sh 10          # CI: briefly, so the targets keep building and running
# FUZZ_TARGETS="evemu yaml" picks targets; FUZZ_MAX_RUNS=10000000 also ends a target after that many executions.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_TARGET=${1:-60}
OUT=${FUZZ_OUT:-$(mktemp -d /tmp/touchd-fuzz.XXXXXX)}
( cd Tests/Fuzz && swift build -c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld 2>&1 | tail -n 1 )
FUZZ=Tests/Fuzz/.build/release/touchd-fuzz
R=../shared/recordings
seed() {  # $1 target, then files
    local target=$1; shift
    mkdir -p "$OUT/corpus/$target"
    for file in "$@"; do [ -f "$file" ] && head -c 65536 "$file" > "$OUT/corpus/$target/$(echo "$file" | tr '/' '_')"; done
    return 0
}
seed evemu config/demo/panel.evemu $(ls $R/evemu/*.event $R/tslib/* $R/xorg-integration-tests/touchscreens/* 2>/dev/null | head -20)
seed yaml $R/libinput-record-yaml/*.yml*
# Real recordings as raw input_event dumps too (E: lines to 24-byte records), for raw and replay.
to_raw() {  # $1 evemu file, $2 output
    python3 - "$1" "$2" <<'PY'
import re, struct, sys
out = bytearray()
for line in open(sys.argv[1], errors="replace"):
    m = re.match(r"E:\s+(\d+)\.(\d+)\s+([0-9a-fA-F]+)\s+([0-9a-fA-F]+)\s+(-?\d+)", line)
    if m:
        out += struct.pack("<qqHHi", int(m[1]), int(m[2].ljust(6, "0")[:6]), int(m[3], 16), int(m[4], 16), int(m[5]))
open(sys.argv[2], "wb").write(bytes(out[:65536 - 65536 % 24]))
PY
}
seed raw
seed replay config/demo/panel.evemu $(ls $R/evemu/*.event $R/tslib/*.events $R/xorg-integration-tests/touchscreens/*.events $R/xorg-integration-tests/touchpads/*.events $R/chromiumos-autotest/*/* $R/android-getevent-MonkeyHelper/original/*.txt 2>/dev/null | head -40)
for file in config/demo/panel.evemu $(ls $R/xorg-integration-tests/touchscreens/*.events $R/evemu/*.event 2>/dev/null | head -8); do
    name=$(echo "$file" | tr '/' '_').raw
    to_raw "$file" "$OUT/corpus/raw/$name" && cp "$OUT/corpus/raw/$name" "$OUT/corpus/replay/$name"
done
"$( [ -x .build/release/touchd-bench ] && echo .build/release/touchd-bench || echo true )" make-looped "$OUT/seed.evemu" "$OUT/corpus/raw/demo.raw" 500 config/demo/panel.evemu >/dev/null 2>&1 || true
seed getevent $(ls $R/android-getevent-MonkeyHelper/original/*.txt 2>/dev/null | head -6)
seed evtest $(ls $R/chromiumos-firmware_TouchMTB/original/data/*.dat 2>/dev/null | head -6)
# The streaming reader against the whole-file reader: text of every format, and raw dumps.
seed stream config/demo/panel.evemu $R/libinput-record-yaml/*.yml* $(ls $R/evemu/*.event $R/android-getevent-MonkeyHelper/original/*.txt $R/chromiumos-firmware_TouchMTB/original/data/*.dat 2>/dev/null | head -12)
cp "$OUT"/corpus/raw/* "$OUT/corpus/stream/" 2>/dev/null || true
seed decoder
seed scene config/demo/scene.json config/scene.example.json
seed config config/touchd.json
seed protocol
printf '{"op":"subscribe","events":["touch"],"regions":["a"]}\n{"op":"ping","id":1}\n' > "$OUT/corpus/protocol/requests"
printf '{"op":"set-scene","scene":{"size":[10,10],"regions":[{"id":"a","frame":[0,0,5,5]}]}}\n' > "$OUT/corpus/protocol/scene"
status=0
for target in ${FUZZ_TARGETS:-evemu yaml raw getevent evtest stream decoder replay scene config protocol}; do
    log="$OUT/$target.log"
    started=$(date +%s)
    if SWIFT_BACKTRACE=enable=no FUZZ_TARGET=$target "$FUZZ" -max_total_time="$SECONDS_PER_TARGET" -print_final_stats=1 \
        -runs="${FUZZ_MAX_RUNS:--1}" -artifact_prefix="$OUT/$target-" -max_len=65536 -rss_limit_mb=2048 \
        "$OUT/corpus/$target" > "$log" 2>&1; then
        runs=$(awk '/stat::number_of_executed_units/ {print $NF}' "$log")
        echo "fuzz $target: $runs executions in $(( $(date +%s) - started )) s, no crash, leak or hang"
    else
        echo "fuzz $target: FAILED; see $log and $OUT/$target-*"
        grep -E "ERROR|precondition|Fatal" "$log" | head -5
        status=1
    fi
done
exit $status
