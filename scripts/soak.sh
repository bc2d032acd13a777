#!/usr/bin/env bash
# Soak: the daemon replays the demo at 20x in a loop while clients keep subscribing, reading and leaving, for
# SECONDS (default 3600). Checks that the daemon's RSS and open descriptors stay flat (start vs end after warm-up)
# and that it is still answering. CI runs a 2-minute version: scripts/soak.sh 120.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_TOTAL=${1:-3600}
[ -x .build/debug/touchd ] || swift build --product touchd >/dev/null
WORK=$(mktemp -d /tmp/touchd-soak.XXXXXX)
SOCK=$WORK/touchd.sock
.build/debug/touchd run --socket "$SOCK" --scene config/demo/scene.json --replay config/demo/panel.evemu --loop --speed 20 \
    --log-level warning 2> "$WORK/daemon.log" &
DAEMON=$!
trap 'kill $DAEMON 2>/dev/null; rm -rf "$WORK"' EXIT
for _ in $(seq 100); do [ -S "$SOCK" ] && break; sleep 0.1; done
measure() { echo "$(awk '/^VmRSS/ {print $2}' /proc/$DAEMON/status) $(ls /proc/$DAEMON/fd | wc -l)"; }
churn() {  # clients that subscribe, read a little, and leave: some politely, some mid-stream
    python3 - "$SOCK" "$1" <<'PY'
import json, random, socket, sys, time
path, until = sys.argv[1], time.time() + float(sys.argv[2])
random.seed(1)
sessions = 0
while time.time() < until:
    s = socket.socket(socket.AF_UNIX)
    s.connect(path)
    f = s.makefile("rwb")
    f.readline()
    f.write(b'{"op":"subscribe","id":1}\n'); f.flush()
    for _ in range(random.randint(1, 400)):
        if not f.readline():
            break
    if random.random() < 0.3:
        f.write(b'{"op":"pi'); f.flush()  # leaves mid-request
    s.close()
    sessions += 1
print(sessions)
PY
}
WARMUP=$(( SECONDS_TOTAL / 10 ))
[ $WARMUP -lt 10 ] && WARMUP=10
churn "$WARMUP" >/dev/null
read -r rss0 fd0 <<< "$(measure)"
sessions=0
for worker in 1 2 3 4; do churn $(( SECONDS_TOTAL - WARMUP )) > "$WORK/churn$worker" & done
wait $(jobs -p | grep -v "^$DAEMON$") 2>/dev/null || true
for worker in 1 2 3 4; do sessions=$(( sessions + $(cat "$WORK/churn$worker" 2>/dev/null || echo 0) )); done
read -r rss1 fd1 <<< "$(measure)"
.build/debug/touchctl --socket "$SOCK" ping >/dev/null
echo "soak ${SECONDS_TOTAL}s: $sessions client sessions; RSS ${rss0} -> ${rss1} kB; open fds ${fd0} -> ${fd1}"
status=0
[ "$fd1" -le "$fd0" ] || { echo "soak: descriptors grew"; status=1; }
[ "$rss1" -le $(( rss0 + rss0 / 10 + 1024 )) ] || { echo "soak: RSS grew more than 10 % + 1 MB"; status=1; }
exit $status
