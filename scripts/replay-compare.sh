#!/usr/bin/env bash
# Replays every shared recording with a given touchd and compares two such runs, so a change to the
# pipeline can show exactly which recordings' output it changed.
#   scripts/replay-compare.sh run TOUCHD OUTDIR   # each recording, plain and through config/demo/scene.json
#   scripts/replay-compare.sh diff DIR_A DIR_B    # lists the outputs that differ; exit 1 when any do
# For each recording REL (path under the recordings folder) `run` writes OUTDIR/REL.out (stdout),
# OUTDIR/REL.err (stderr: the summary or the error, then the exit status), and REL.scene.out/.scene.err.
# `diff` lists stdout and stderr differences separately: stderr holds the summary, which may change on purpose.
# TOUCHD_RECORDINGS points elsewhere than ../shared/recordings, as for the tests.
set -euo pipefail
cd "$(dirname "$0")/.."
RECORDINGS=${TOUCHD_RECORDINGS:-../shared/recordings}
SCENE=config/demo/scene.json

usage() {
    sed -n '2,9p' "$0" >&2
    exit 2
}

replay_all() {  # $1 touchd binary, $2 output directory
    local touchd=$1 out=$2 count=0
    [ -f "$touchd" ] && [ -x "$touchd" ] || { echo "not an executable file: $touchd" >&2; exit 2; }
    [ -d "$RECORDINGS" ] || { echo "no recordings at $RECORDINGS" >&2; exit 2; }
    mkdir -p "$out"
    while IFS= read -r -d '' file; do
        local rel=${file#"$RECORDINGS"/}
        mkdir -p "$out/$(dirname "$rel")"
        # Each run's exit status goes at the end of its stderr file: a crash shows as a status above 128.
        local status=0
        "$touchd" replay "$file" > "$out/$rel.out" 2> "$out/$rel.err" || status=$?
        echo "exit $status" >> "$out/$rel.err"
        status=0
        "$touchd" replay "$file" --scene "$SCENE" > "$out/$rel.scene.out" 2> "$out/$rel.scene.err" || status=$?
        echo "exit $status" >> "$out/$rel.scene.err"
        count=$((count + 1))
    done < <(find "$RECORDINGS" -type f -print0 | sort -z)
    echo "replayed $count files (plain and with $SCENE) into $out"
}

compare() {  # $1, $2 directories made by `run`
    local a=$1 b=$2 differ=0
    [ -d "$a" ] && [ -d "$b" ] || usage
    local listing
    listing=$( (cd "$a" && find . -type f; cd "$b" && find . -type f) | sort -u)
    for kind in out err; do
        local changed=()
        while IFS= read -r rel; do
            case "$rel" in *."$kind") ;; *) continue ;; esac
            cmp -s "$a/$rel" "$b/$rel" 2>/dev/null || changed+=("${rel#./}")
        done <<< "$listing"
        if [ ${#changed[@]} -eq 0 ]; then
            echo "$kind: all $(grep -c "\.$kind\$" <<< "$listing") identical"
        else
            differ=1
            echo "$kind: ${#changed[@]} differ:"
            printf '  %s\n' "${changed[@]}"
        fi
    done
    return $differ
}

case "${1:-}" in
    run) [ $# -eq 3 ] || usage; replay_all "$2" "$3" ;;
    diff) [ $# -eq 3 ] || usage; compare "$2" "$3" ;;
    *) usage ;;
esac
