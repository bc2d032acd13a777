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
printf '{"op":"subscribe","events":["touch","gesture"],"fields":["region","x","vx"]}\n' > "$OUT/corpus/protocol/fields"
# engine: scripts of operations (Tests/Fuzz/Sources/touchd-fuzz/EngineTarget.swift): a settings byte, then e.g.
# c0 (connect root), s0{…}\n (client 0 sends a line), t0 slot id x y dt (a touch frame), A (advance), S (shutdown).
seed engine
E=$OUT/corpus/engine
printf '\x00c0s0{"op":"subscribe","id":1}\nc1s1{"op":"ping","id":9007199254740993}\nt0\x00\x01&(\x05u0\x00\x05t0\x00\x02<\xd2\x05A\x01u0\x00\x05t0\x00\x03\xaa\x8c\x05t0\x01\x04\xc8\xaa\x05t0\x00\x03\x96\x78\x10t0\x01\x04\xdc\xbe\x10u0\x00\x05u0\x01\x05t0\x00\x052\x92\x05t0\x00\x05P\x92\x10t0\x00\x05x\x92\x10u0\x00\x05A\x00f0f1S' > "$E/gestures"
printf '\x00c0s0{"op":"get-scene","id":"a\\u00e9"}\ns0{"op":"add-region","id":2,"region":{"id":"new","frame":[0,0,10,10],"gestures":["tap"]}}\ns0{"op":"update-region","id":3,"region":"play","set":{"hidden":true}}\ns0{"op":"remove-region","id":4,"region":"menu"}\nc1s1{"op":"subscribe","events":["scene","device","gesture"],"id":0}\ns0{"op":"set-scene","id":5,"scene":{"version":1,"size":[10,10],"regions":[{"id":"a","frame":[0,0,5,5]}]}}\ns1{"op":"set-scene","id":6,"scene":{"version":1,"size":[10,10],"regions":[]}}\ns0{"op":"devices","id":-7}\ns0{"op":"unsubscribe"}\na\x01d\x00R\x00R\x03S' > "$E/scene"
printf '\x02c0s0{"op":"subscribe","events":["touch"]}\nw0\x01t0\x00\x01\x10\x10\x01u0\x00\x01t0\x00\x02\x11\x11\x01u0\x00\x01t0\x00\x03\x12\x12\x01u0\x00\x01t0\x00\x04\x13\x13\x01u0\x00\x01t0\x00\x05\x14\x14\x01u0\x00\x01t0\x00\x06\x15\x15\x01u0\x00\x01t0\x00\x07\x16\x16\x01u0\x00\x01c1w1\x16r1\x7f{"op":"ping","id":1}\nf1f1w1\x00S' > "$E/slow"
printf '\x01c0e0\x40as0not json\np0{"op":"pi\ns0ng","id":12}\ns0{"id":1.5,"op":"ping"}\ns0[1,2]\ns0{"op":"ping","id":99999999999999999999}\nH0c2s1{"op":"nope","id":"x"}\nl1S' > "$E/garbage"
printf '\x00c0s0{"op":"subscribe"}\nT\x80t0\x00\x01&(\x05A\x02T\x85t0\x01\x02\x10\x10\x84v0\x04\x00\x00\x80\xc0\x03\x81\x07\x10\x02\x06\x20\x03\x00\x00\x04y0\x01\x02\xff\x03\x04\x00z0\x00R\x02S' > "$E/time"
printf '\x0cc3c1c0A\x01A\x01c0w2\x01r2\x40{"op":"get-scene"}\nA\x01A\x01A\x01A\x02c0c0c0c0c0c0c0c3S' > "$E/idle"
printf '\x02c0s0{"op":"subscribe","events":["touch","gesture"]}\nw0\x01t0\x00\x01\x10\x10\x01t0\x00\x01\x14\x10\x01t0\x00\x01\x18\x10\x01t0\x00\x01\x1c\x10\x01t0\x00\x01\x20\x10\x01t0\x00\x01\x24\x10\x01t0\x00\x01\x28\x10\x01t0\x00\x01\x2c\x10\x01t0\x00\x01\x30\x10\x01w0\x86r0\x7f{"op":"get-scene","id":1}\nf0f0w0\x00S' > "$E/coalesce"
printf '\x00c0s0{"op":"subscribe","events":["gesture"],"regions":["background"]}\nt0\x00\x01d<\x05t0\x01\x02dK\x05t0\x00\x01\x82<\x0at0\x01\x02\x82K\x00t0\x00\x01\xa0<\x0at0\x01\x02\xa0K\x00t0\x00\x01\xbe<\x0at0\x01\x02\xbeK\x00u0\x00\x05u0\x01\x00S' > "$E/swipe"
# Field selections: the core alone, some keys with a filter, whole lines, one changed mid-stream; drags and taps.
printf '\x00c0s0{"op":"subscribe","fields":[]}\nc1s1{"op":"subscribe","events":["touch","gesture"],"fields":["region","dx","vx","taps"]}\nc2s2{"op":"subscribe"}\nt0\x00\x01&(\x05u0\x00\x05t0\x00\x02<\xd2\x05A\x01u0\x00\x05s1{"op":"subscribe","fields":["device","local_x"]}\nt0\x00\x03\xaa\x8c\x05t0\x01\x04\xc8\xaa\x05t0\x00\x03\x96\x78\x10t0\x01\x04\xdc\xbe\x10u0\x00\x05u0\x01\x05A\x00f0f1f2S' > "$E/fields"
# Devices with a virtual touchscreen (a, bit 5): touches, a lift, SYN_DROPPED, removal mid-touch, one more, shutdown.
printf '\x00c0s0{"op":"subscribe"}\na\x20t\x01\x00\x01\x10\x10\x05t\x01\x01\x02\xc0\xc0\x05t\x01\x00\x01\x12\x10\x05u\x01\x00\x05y\x01\x01\x02\xff\x03\x04\x00t\x01\x01\x03\x50\x50\x05d\x01a\x21t\x02\x00\x01\x80\x80\x05S' > "$E/virtual"
status=0
for target in ${FUZZ_TARGETS:-evemu yaml raw getevent evtest stream decoder replay scene config protocol engine}; do
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
