#!/usr/bin/env bash
# The Debian package as a user gets it: builds it (scripts/build-deb.sh), lints it, then boots a clean
# Debian 12 root (debootstrap --variant=minbase from the mirror apt uses here, no Swift in it) with systemd as PID 1
# (systemd-nspawn -b), where Tests/deb/in-container.sh runs `apt install ./touchd_*.deb` and the checks a deployer
# relies on: socket activation, a touchd member's ping and monitor against a replaying touchd, man pages, bash
# completion, an upgrade that keeps a changed touchd.json, remove, and a purge that leaves no file behind.
# The pristine root is cached in $TOUCHD_CI_CACHE (default /var/cache/touchd-ci); each run boots a copy of it.
# Skips, saying so, where it cannot run (not root, no systemd-nspawn or debootstrap and no apt).
set -euo pipefail
cd "$(dirname "$0")/.."
skip() { echo "deb-test: $*: skipped"; echo "deb: 0 passed, 0 failed (skipped)"; exit 0; }
[ "$(id -u)" -eq 0 ] || skip "needs root for debootstrap and systemd-nspawn"
need=()
command -v systemd-nspawn >/dev/null || need+=(systemd-container)
command -v debootstrap >/dev/null || need+=(debootstrap)
command -v lintian >/dev/null || need+=(lintian)
if ((${#need[@]})); then
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y -qq --no-install-recommends \
        "${need[@]}"; } >/dev/null 2>&1 || skip "${need[*]} missing and apt-get could not install them"
fi
started=$(date +%s)

# 1. The packages, and a copy of touchd's with a higher version for the upgrade check (the same files: what is
# checked is dpkg's handling of the changed conffile, not the programs).
# DEB_TEST_REUSE=1: test the packages already in dist/ (from scripts/build-deb.sh) rather than building them again.
t0=$(date +%s)
[ -n "${DEB_TEST_REUSE:-}" ] && ls dist/touchd_*.deb >/dev/null 2>&1 ||
scripts/build-deb.sh > /tmp/touchd-build-deb.log 2>&1 || { tail -n 30 /tmp/touchd-build-deb.log; echo "deb: 0 passed, 1 failed"; exit 1; }
build_s=$(( $(date +%s) - t0 ))
arch=$(dpkg --print-architecture)
deb=$(ls dist/touchd_*_"$arch".deb)
echo "deb-test: built $(cd dist && ls ./*.deb | tr '\n' ' ')in ${build_s} s; $(basename "$deb") $(stat -c %s "$deb") bytes," \
    "installed size $(dpkg-deb -f "$deb" Installed-Size) KiB; Depends: $(dpkg-deb -f "$deb" Depends)"

# 2. lintian: no errors; the warnings are listed (and explained) in docs/deployment.md.
t0=$(date +%s)
lint=$(lintian --no-tag-display-limit dist/*.deb 2>&1 || true)
lint_errors=$(grep -c '^E:' <<< "$lint" || true)
echo "deb-test: lintian in $(( $(date +%s) - t0 )) s: $lint_errors error(s), $(grep -c '^W:' <<< "$lint" || true) warning(s)"
[ -z "$lint" ] || sed 's/^/  /' <<< "$lint"

# 3. The clean root: debootstrap once, from the mirror apt's own configuration names.
CACHE=${TOUCHD_CI_CACHE:-/var/cache/touchd-ci}
INCLUDE=systemd,systemd-sysv,man-db,bash-completion
PRISTINE=$CACHE/bookworm-minbase-$(echo "$INCLUDE" | md5sum | cut -c1-8)
mirror() {
    # deb822 (.sources) first, then one-line sources.list entries: the first URI that serves bookworm's main.
    local uri
    uri=$(awk 'BEGIN{IGNORECASE=1} /^URIs:/{u=$2} /^Suites:/{for(i=2;i<=NF;i++) if($i=="bookworm"){print u; exit}}' \
        /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n 1)
    [ -n "$uri" ] || uri=$(awk '$1=="deb" && $3=="bookworm" {print $2; exit}' /etc/apt/sources.list 2>/dev/null)
    echo "$uri"
}
if [ ! -d "$PRISTINE" ]; then
    MIRROR=$(mirror)
    [ -n "$MIRROR" ] || { echo "deb-test: no bookworm mirror in apt's configuration"; echo "deb: 0 passed, 1 failed"; exit 1; }
    t0=$(date +%s)
    mkdir -p "$CACHE"
    rm -rf "$PRISTINE.tmp"
    debootstrap --variant=minbase --include="$INCLUDE" bookworm "$PRISTINE.tmp" "$MIRROR" > "$CACHE/debootstrap.log" 2>&1 ||
        { tail -n 20 "$CACHE/debootstrap.log"; echo "deb: 0 passed, 1 failed"; exit 1; }
    mv "$PRISTINE.tmp" "$PRISTINE"
    echo "deb-test: debootstrap of a bookworm minbase root from $MIRROR in $(( $(date +%s) - t0 )) s (cached in $PRISTINE)"
fi

WORK=$(mktemp -d /tmp/touchd-deb.XXXXXX)
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
t0=$(date +%s)
cp -a --reflink=auto "$PRISTINE" "$WORK/root"
ROOT=$WORK/root
mkdir -p "$WORK/out" "$ROOT/root/debs/next"
cp "$deb" "$ROOT/root/debs/"
dpkg-deb -R "$deb" "$WORK/next"
version=$(dpkg-deb -f "$deb" Version)
sed -i "s/^Version: .*/Version: $version+ci1/" "$WORK/next/DEBIAN/control"
dpkg-deb --root-owner-group -b "$WORK/next" "$ROOT/root/debs/next/touchd_${version}+ci1_$arch.deb" >/dev/null
install -m 0755 Tests/deb/in-container.sh "$ROOT/root/in-container.sh"
cat > "$ROOT/etc/systemd/system/touchd-deb-check.service" <<'UNIT'
[Unit]
Description=touchd package checks (scripts/deb-test.sh)
After=multi-user.target

[Service]
Type=oneshot
ExecStart=/root/in-container.sh /out
ExecStopPost=/usr/bin/systemctl poweroff --no-block
TimeoutStartSec=300
StandardOutput=journal+console
UNIT
echo "deb-test: copy of the cached root in $(( $(date +%s) - t0 )) s"

echo "---- systemd-nspawn -b: the clean root with systemd as PID 1"
boot0=$(date +%s)
timeout -k 10 360 systemd-nspawn -D "$ROOT" --register=no --keep-unit -q --machine="touchd-deb-$$" \
    --bind="$WORK/out:/out" \
    -b systemd.unit=multi-user.target systemd.firstboot=off systemd.wants=touchd-deb-check.service \
    > "$WORK/console.log" 2>&1 &
NSPAWN_PID=$!
rc=0
wait "$NSPAWN_PID" || rc=$?
NSPAWN_PID=
boot1=$(date +%s)
if [ ! -s "$WORK/out/results.txt" ]; then
    echo "deb-test: no results (systemd-nspawn exit $rc); the container's console:"
    sed 's/\x1b\[[0-9;]*m//g' "$WORK/console.log" | tail -n 40
    echo "deb: 0 passed, 1 failed"
    exit 1
fi
cat "$WORK/out/results.txt"
if grep -q '^FAIL' "$WORK/out/results.txt" || ! grep -q '^DONE' "$WORK/out/results.txt"; then
    echo "---- details of the checks"
    tail -n 60 "$WORK/out/details.txt"
    if [ -n "${DEB_TEST_KEEP:-}" ]; then
        mkdir -p "$DEB_TEST_KEEP" && cp -r "$WORK/out" "$WORK/console.log" "$DEB_TEST_KEEP/"
        echo "deb-test: details kept in $DEB_TEST_KEEP"
    fi
fi
passed=$(grep -c '^PASS' "$WORK/out/results.txt" || true)
failed=$(( $(grep -c '^FAIL' "$WORK/out/results.txt" || true) + $(grep -q '^DONE' "$WORK/out/results.txt" && echo 0 || echo 1) ))
[ "$lint_errors" -eq 0 ] && passed=$((passed + 1)) || { echo "FAIL lintian: no errors"; failed=$((failed + 1)); }
echo "deb-test: container $((boot1 - boot0)) s (nspawn exit $rc), whole run $(( $(date +%s) - started )) s"
echo "deb: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
