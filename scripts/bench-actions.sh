#!/usr/bin/env bash
# docs/actions.md's figure: touchd-actions' own cost when a gesture fires a command on every event. A release
# touchd replays n4.events (Nexus 4, three pinches) at real speed; touchd-actions runs `true` on every pinch
# `changed` (repeatMs 0); printed: commands started and reaped, the run's wall time, touchd-actions' CPU time
# (user, system, read from /proc before it stops) and its peak resident size.
#   scripts/bench-actions.sh     (needs ../shared/recordings, or TOUCHD_RECORDINGS; builds the release binaries)
set -euo pipefail
cd "$(dirname "$0")/.."
recordings=${TOUCHD_RECORDINGS:-../shared/recordings}
recording=$recordings/xorg-integration-tests/touchscreens/n4.events
[ -f "$recording" ] || { echo "bench-actions: $recording not found" >&2; exit 66; }
swift build -c release --product touchd 2>&1 | tail -n 1
swift build -c release --product touchd-actions 2>&1 | tail -n 1
bin=$(swift build -c release --show-bin-path)
work=$(mktemp -d /tmp/touchd-bench-actions.XXXXXX)
trap 'kill "${daemon:-}" 2>/dev/null || true; rm -rf "$work"' EXIT
echo '{"size": [1536, 2560], "regions": []}' > "$work/scene.json"
echo "{\"scene\": \"$work/scene.json\", \"socket\": {\"path\": \"$work/touchd.sock\"}}" > "$work/touchd.json"
cat > "$work/actions.json" <<JSON
{"regions": [{"id": "screen", "frame": [0, 0, 1536, 2560], "gestures": ["pinch"]}],
 "commands": {"maxRunning": 16, "maxQueued": 64},
 "rules": [{"region": "screen", "gesture": "pinch", "state": "changed", "repeatMs": 0, "run": ["true"]}]}
JSON
# The replay waits for one subscriber (touchd-actions), so the whole recording reaches it.
"$bin/touchd" run --config "$work/touchd.json" --replay "$recording" --replay-waits 1 2>"$work/touchd.log" &
daemon=$!
for _ in $(seq 100); do [ -S "$work/touchd.sock" ] && break; sleep 0.05; done
start=$(date +%s.%N)
"$bin/touchd-actions" --actions "$work/actions.json" --socket "$work/touchd.sock" \
    --log-level info 2>"$work/actions.log" &
actions=$!
# touchd keeps serving after the recording's end: the run is over when no command has started or ended for 2 s
# (the recording's pinches are seconds apart at most, its end is where the log stops growing).
last=""; quiet=0
while [ $quiet -lt 20 ]; do
    sleep 0.1
    now=$(grep -c "started pid\| ended after " "$work/actions.log" || true)
    if [ "$now" = "$last" ] && [ "$now" != 0 ]; then quiet=$((quiet + 1)); else quiet=0; last=$now; fi
done
end=$(date +%s.%N)
# Its own times and peak size, from /proc before it stops (GNU time's would add the 600-odd reaped commands').
pid=$(pgrep -P "$actions" -x touchd-actions || echo "$actions")
ticks=$(getconf CLK_TCK)
read -r user system children < <(awk -v t="$ticks" '{printf "%.2f %.2f %.2f\n", $14 / t, $15 / t, ($16 + $17) / t}' \
    "/proc/$pid/stat")
rss=$(awk '/VmHWM/ {print $2}' "/proc/$pid/status")
kill -TERM "$(pgrep -P "$actions" -x touchd-actions || echo "$actions")" 2>/dev/null || true
wait "$actions" || true
started=$(grep -c "started pid" "$work/actions.log" || true)
ended=$(grep -c " ended after " "$work/actions.log" || true)
printf 'commands started %s, reaped %s, in %.1f s; touchd-actions CPU %s s user + %s s system (its commands %s s),' \
    "$started" "$ended" "$(awk -v a="$start" -v b="$end" "BEGIN {print b - a - 2}")" "$user" "$system" "$children"
printf ' peak RSS %d MB\n' $((rss / 1024))
