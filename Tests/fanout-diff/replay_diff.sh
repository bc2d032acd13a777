#!/usr/bin/env bash
# Replays recordings with two touchd binaries under many option sets and compares stdout, stderr and the exit
# status byte for byte; a crash (exit > 128) or a run past the timeout is reported even when both sides agree.
#   replay_diff.sh BASE_TOUCHD NEW_TOUCHD DIR [SHARED_RECORDINGS]
# DIR holds NAME.events (and NAME.scene.json, used with --scene; else config/demo/scene.json), as
# gen_recordings.py writes them. With SHARED_RECORDINGS, each of its files is also replayed with --format text and
# with --scene config/demo/scene.json --format ndjson (scripts/replay-compare.sh covers the two default runs).
set -uo pipefail
shopt -s nullglob
cd "$(dirname "$0")/../.."
[ $# -ge 3 ] || { sed -n '2,7p' "$0" >&2; exit 2; }
base=$1 new=$2 dir=$3 shared=${4:-}
demo=config/demo/scene.json
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
runs=0 differ=0 crashes=0

one() {  # $1 label, then the replay's arguments
    local label=$1
    shift
    local side status
    for side in base new; do
        local bin=$base
        [ $side = new ] && bin=$new
        status=0
        timeout 60 "$bin" replay "$@" > "$out/$side.out" 2> "$out/$side.err" || status=$?
        echo "exit $status" >> "$out/$side.err"
        if [ $status -gt 128 ]; then
            crashes=$((crashes + 1))
            echo "CRASH/TIMEOUT ($side, exit $status): $label: replay $*"
        fi
    done
    runs=$((runs + 1))
    if ! cmp -s "$out/base.out" "$out/new.out" || ! cmp -s "$out/base.err" "$out/new.err"; then
        differ=$((differ + 1))
        echo "DIFFER: $label: replay $*"
        diff <(head -c 200000 "$out/base.out") <(head -c 200000 "$out/new.out") | head -6
        diff "$out/base.err" "$out/new.err" | head -6
    fi
}

for file in "$dir"/*.events; do
    name=$(basename "$file" .events)
    scene=$demo
    [ -f "$dir/$name.scene.json" ] && scene="$dir/$name.scene.json"
    one "$name" "$file"
    one "$name" "$file" --filter off
    one "$name" "$file" --filter off --format text
    one "$name" "$file" --filter off --size 1000x1000
    one "$name" "$file" --filter off --size 333x777 --rotate 90 --invert-y
    one "$name" "$file" --filter off --calibration '1.0001 0.003 -0.0005 -0.002 0.9997 0.00125'
    one "$name" "$file" --scene "$scene"
    one "$name" "$file" --scene "$scene" --filter off
    one "$name" "$file" --scene "$scene" --filter off --format text
    one "$name" "$file" --scene "$demo" --filter off
    one "$name" "$file" --scene "$scene" --filter one-euro
done

if [ -n "$shared" ]; then
    while IFS= read -r -d '' file; do
        one "shared" "$file" --format text
        one "shared" "$file" --scene "$demo" --format ndjson
    done < <(find "$shared" -type f -print0 | sort -z)
fi
echo "runs: $runs, differing: $differ, crashes or timeouts: $crashes"
[ $differ -eq 0 ] && [ $crashes -eq 0 ]
