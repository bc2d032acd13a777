#!/usr/bin/env bash
# Random decoder recordings (gen.py) through two touchd binaries under several option sets; stdout, stderr and exit
# status must be byte for byte the same, and neither may crash or hang.
#   run.sh BASE_TOUCHD NEW_TOUCHD FIRST_SEED COUNT OUTDIR
set -uo pipefail
cd "$(dirname "$0")/../.."
[ $# -eq 5 ] || { sed -n '2,4p' "$0" >&2; exit 2; }
base=$1 new=$2 first=$3 count=$4 dir=$5
mkdir -p "$dir"
scenes=(config/demo/scene.json)
runs=0 differ=0 crashes=0
for ((seed = first; seed < first + count; seed++)); do
    python3 Tests/decoder-diff/gen.py "$seed" "$dir"
    file=$dir/$seed.events
    kept=0
    for opts in "" "--filter off" "--filter one-euro --format text" "--scene ${scenes[0]}" \
        "--scene ${scenes[0]} --filter off --size 100x100" "--filter off --rotate 270 --map-to 10,20,300,400"; do
        for side in base new; do
            bin=$base
            [ $side = new ] && bin=$new
            status=0
            # shellcheck disable=SC2086
            timeout 30 "$bin" replay "$file" $opts > "$dir/$side.out" 2> "$dir/$side.err" || status=$?
            echo "exit $status" >> "$dir/$side.err"
            if [ $status -gt 128 ]; then
                crashes=$((crashes + 1))
                echo "CRASH/TIMEOUT ($side, exit $status): seed $seed: replay $file $opts"
            fi
        done
        runs=$((runs + 1))
        if ! cmp -s "$dir/base.out" "$dir/new.out" || ! cmp -s "$dir/base.err" "$dir/new.err"; then
            differ=$((differ + 1))
            echo "DIFFER: seed $seed: replay $file $opts"
            cp "$dir/base.out" "$dir/diff-$seed.base.out"
            cp "$dir/new.out" "$dir/diff-$seed.new.out"
            diff "$dir/base.err" "$dir/new.err" | head -4
            kept=1
        fi
    done
    [ $kept = 1 ] || rm -f "$file" "$dir/$seed.kind"
done
echo "runs $runs, differ $differ, crashes/timeouts $crashes"
