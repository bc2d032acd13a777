#!/usr/bin/env bash
# The shipped units under a real systemd as PID 1: boots this machine's own tree in systemd-nspawn
# (--volatile=yes: a tmpfs root with the host's /usr read-only, nothing lasts), with touchd installed by
# scripts/install.sh into a DESTDIR that is laid over /usr, its configuration in /etc/touchd, and a drop-in that
# only swaps ExecStart for `touchd run --replay` of the demo recording (no input devices exist here; every
# hardening line stays). Test users come from a sysusers.d file. Tests/systemd/in-container.sh runs as a unit
# after boot, writes PASS/FAIL lines to a bound directory and powers the container off.
# Skips, saying so, where nspawn cannot run (not root, no systemd-container and no apt).
set -euo pipefail
cd "$(dirname "$0")/.."
skip() { echo "systemd-test: $*: skipped"; echo "systemd: 0 passed, 0 failed (skipped)"; exit 0; }
[ "$(id -u)" -eq 0 ] || skip "needs root for systemd-nspawn"
if ! command -v systemd-nspawn >/dev/null; then
    DEBIAN_FRONTEND=noninteractive timeout 300 apt-get install -y -qq --no-install-recommends systemd-container \
        >/dev/null 2>&1 || skip "systemd-container is not installed and apt-get could not install it"
fi
[ -d /run/systemd/system ] && [ "$(cat /proc/1/comm)" = systemd ] && echo "systemd-test: note: the host runs systemd"
started=$(date +%s)
swift build -c release --static-swift-stdlib --product touchd 2>&1 | tail -n 1
swift build -c release --static-swift-stdlib --product touchctl 2>&1 | tail -n 1
swift build -c release --static-swift-stdlib --product touchd-actions 2>&1 | tail -n 1

WORK=$(mktemp -d /tmp/touchd-systemd.XXXXXX)
MACHINE=touchd-test-$$
NSPAWN_PID=
# systemd-nspawn leaves empty traces in the host's /run/systemd; those this run makes are removed at the end.
traces=(/run/systemd/nspawn/propagate /run/systemd/nspawn /run/systemd/nspawn-root /run/systemd/systemd-units-load)
new_traces=()
for t in "${traces[@]}"; do [ -e "$t" ] || new_traces+=("$t"); done
cleanup() {
    if [ -n "$NSPAWN_PID" ] && kill -0 "$NSPAWN_PID" 2>/dev/null; then kill -KILL "$NSPAWN_PID" 2>/dev/null || true; fi
    rm -rf "$WORK"
    for t in "${new_traces[@]}"; do
        if [ -d "$t" ]; then rmdir "$t" 2>/dev/null || true; elif [ -f "$t" ] && [ ! -s "$t" ]; then rm -f "$t"; fi
    done
}
trap cleanup EXIT
ROOT=$WORK/root
mkdir -p "$WORK/out" "$WORK/etc/touchd.service.d" "$WORK/etc/pam.d"
# A user manager (user@.service, for touchd-actions' user unit) opens the PAM service systemd-user; the volatile
# /etc has none, and this host may have no systemd-user file either. A session that only permits is enough here:
# systemd itself gives the user its groups.
printf 'account required pam_permit.so\nsession required pam_permit.so\n' > "$WORK/etc/pam.d/systemd-user"
DESTDIR=$ROOT TOUCHD_BIN_DIR=.build/release scripts/install.sh >/dev/null
cp config/demo/panel.evemu "$ROOT/etc/touchd/panel.evemu"
# The ExecStart drop-in: the recording stands in for a touchscreen, in a loop; nothing else changes.
cat > "$WORK/etc/touchd.service.d/replay.conf" <<'UNIT'
[Service]
ExecStart=
ExecStart=/usr/bin/touchd run --config /etc/touchd/touchd.json --replay /etc/touchd/panel.evemu --loop
UNIT
# Clients: each in touchd (and touchd-admin) through a supplementary group only; their primary group is their own.
cat > "$WORK/etc/touchd-test.conf" <<'USERS'
u tclient - "touchd test, touchd member"
m tclient touchd
u tadmin - "touchd test, touchd and touchd-admin member" /home/tadmin
m tadmin touchd
m tadmin touchd-admin
u tmember - "touchd test, touchd member, not admin"
m tmember touchd
u toutsider - "touchd test, in neither group"
USERS
cat > "$WORK/etc/touchd-test.service" <<'UNIT'
[Unit]
Description=touchd checks under systemd (scripts/systemd-test.sh)
After=multi-user.target touchd.socket

[Service]
Type=oneshot
ExecStart=/touchd-test/in-container.sh /out
ExecStopPost=/usr/bin/systemctl poweroff --no-block
TimeoutStartSec=120
StandardOutput=journal+console
UNIT

echo "---- systemd-nspawn: booting the host tree (volatile) with systemd as PID 1"
boot0=$(date +%s)
timeout -k 10 170 systemd-nspawn --volatile=yes -D / --register=no --keep-unit -q --machine="$MACHINE" \
    --overlay-ro="/usr:$ROOT/usr:/usr" \
    --bind-ro="$ROOT/etc/touchd:/etc/touchd" \
    --bind-ro="$WORK/etc/touchd.service.d:/etc/systemd/system/touchd.service.d" \
    --bind-ro="$WORK/etc/touchd-test.conf:/etc/sysusers.d/touchd-test.conf" \
    --bind-ro="$WORK/etc/touchd-test.service:/etc/systemd/system/touchd-test.service" \
    --bind-ro="$(pwd)/Tests/systemd:/touchd-test" \
    --bind-ro="$WORK/etc/pam.d:/etc/pam.d" \
    --bind="$WORK/out:/out" \
    -b systemd.unit=multi-user.target systemd.firstboot=off \
    systemd.wants=touchd.socket systemd.wants=touchd-test.service \
    > "$WORK/console.log" 2>&1 &
NSPAWN_PID=$!
rc=0
wait "$NSPAWN_PID" || rc=$?
NSPAWN_PID=
boot1=$(date +%s)
if [ ! -s "$WORK/out/results.txt" ]; then
    echo "systemd-test: no results (systemd-nspawn exit $rc); the container's console:"
    sed 's/\x1b\[[0-9;]*m//g' "$WORK/console.log" | tail -n 40
    echo "systemd: 0 passed, 1 failed"
    exit 1
fi
cat "$WORK/out/results.txt"
grep -q '^DONE' "$WORK/out/results.txt" || echo "FAIL the checks ran to the end"
if grep -q '^FAIL' "$WORK/out/results.txt" && [ -n "${SYSTEMD_TEST_KEEP:-}" ]; then
    mkdir -p "$SYSTEMD_TEST_KEEP" && cp -r "$WORK/out" "$WORK/console.log" "$SYSTEMD_TEST_KEEP/"
    echo "systemd-test: details kept in $SYSTEMD_TEST_KEEP"
fi
passed=$(grep -c '^PASS' "$WORK/out/results.txt" || true)
failed=$(( $(grep -c '^FAIL' "$WORK/out/results.txt" || true) + $(grep -q '^DONE' "$WORK/out/results.txt" && echo 0 || echo 1) ))
echo "systemd-test: container $((boot1 - boot0)) s (nspawn exit $rc), whole run $(( $(date +%s) - started )) s"
echo "systemd: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
