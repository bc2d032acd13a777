#!/usr/bin/env bash
# Runs the daemon on a real Linux kernel with uinput (../shared/vm/vmrun.sh, qemu): a touchscreen created and
# driven by Debian's evemu-tools, once with udevd and once without (Tests/vm/guest-daemon.sh).
# Skips, saying so, where the VM harness is absent (a user's checkout).
set -euo pipefail
cd "$(dirname "$0")/.."
VMRUN=${VMRUN:-$(pwd)/../shared/vm/vmrun.sh}
if [ ! -x "$VMRUN" ] && [ ! -f "$VMRUN" ]; then
    echo "vm-test: $VMRUN not found: real-kernel tests skipped"
    exit 0
fi
command -v evemu-device >/dev/null || {
    sudo_cmd=(); [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends evemu-tools >/dev/null
}
swift build -c release --static-swift-stdlib --product touchd 2>&1 | tail -n 1
swift build -c release --static-swift-stdlib --product touchctl 2>&1 | tail -n 1
OUT=${VM_OUT:-$(mktemp -d /tmp/touchd-vm.XXXXXX)}
status=0
for mode in plain udev; do
    extra=()
    [ "$mode" = udev ] && extra=(--udev)
    echo "---- real kernel, $mode"
    if bash "$VMRUN" -q -t 300 -o "$OUT/$mode" "${extra[@]}" \
        -b "$(pwd)/.build/release/touchd" -b "$(pwd)/.build/release/touchctl" -b evemu-device -b evemu-play \
        -f "$(pwd)/Tests/vm:/vm" -f "$(pwd)/config/demo:/touchd" -- /vm/guest-daemon.sh "$mode"; then
        grep -E '^(PASS|FAIL)' "$OUT/$mode/stdout" || true
    else
        status=1
        grep -E '^(PASS|FAIL)' "$OUT/$mode/stdout" || true
        echo "vm-test: $mode failed; guest output in $OUT/$mode"
        tail -n 40 "$OUT/$mode/stdout" || true
    fi
done
# The plain closing line CI reads.
passed=$(cat "$OUT"/*/stdout 2>/dev/null | grep -c '^PASS' || true)
failed=$(cat "$OUT"/*/stdout 2>/dev/null | grep -c '^FAIL' || true)
echo "vm: $passed passed, $failed failed"
exit $status
