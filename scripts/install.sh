#!/usr/bin/env bash
# Installs (or, with --uninstall, removes) touchd: binaries, configuration, systemd units, udev rule, sysusers
# entry and docs, at the standard paths under $DESTDIR (for packaging).
#
#   scripts/install.sh [--uninstall [--purge]]
#   DESTDIR=/tmp/pkg PREFIX=/usr SYSCONFDIR=/etc scripts/install.sh
#   TOUCHD_BIN_DIR=.build/debug scripts/install.sh        # install already-built binaries, do not build
#
# After a real install: systemd-sysusers; udevadm control --reload; systemctl daemon-reload;
# systemctl enable --now touchd.socket touchd.service; per user (docs/actions.md): systemctl --user enable --now
# touchd-actions
set -euo pipefail
cd "$(dirname "$0")/.."
DESTDIR=${DESTDIR:-}
PREFIX=${PREFIX:-/usr}
SYSCONFDIR=${SYSCONFDIR:-/etc}
UNITDIR=${UNITDIR:-$PREFIX/lib/systemd/system}
USERUNITDIR=${USERUNITDIR:-$PREFIX/lib/systemd/user}
UDEVDIR=${UDEVDIR:-$PREFIX/lib/udev/rules.d}
SYSUSERSDIR=${SYSUSERSDIR:-$PREFIX/lib/sysusers.d}
DOCDIR=${DOCDIR:-$PREFIX/share/doc/touchd}

files=(
    "$PREFIX/bin/touchd" "$PREFIX/bin/touchctl" "$PREFIX/bin/touchd-actions" "$USERUNITDIR/touchd-actions.service"
    "$DOCDIR/actions.md" "$DOCDIR/actions.example.json" "$DOCDIR/touchd.example.json"
    "$UNITDIR/touchd.service" "$UNITDIR/touchd.socket"
    "$UDEVDIR/60-touchd.rules" "$SYSUSERSDIR/touchd.conf"
    "$DOCDIR/README.md" "$DOCDIR/protocol.md" "$DOCDIR/scene.md" "$DOCDIR/configuration.md" "$DOCDIR/decoding.md"
    "$DOCDIR/deployment.md" "$DOCDIR/touchd_client.py"
)
config=("$SYSCONFDIR/touchd/touchd.json" "$SYSCONFDIR/touchd/scene.json")

if [ "${1:-}" = "--uninstall" ]; then
    for file in "${files[@]}"; do rm -f "$DESTDIR$file"; done
    rmdir "$DESTDIR$DOCDIR" 2>/dev/null || true
    if [ "${2:-}" = "--purge" ]; then
        for file in "${config[@]}"; do rm -f "$DESTDIR$file"; done
        rmdir "$DESTDIR$SYSCONFDIR/touchd" 2>/dev/null || true
    else
        echo "kept $DESTDIR$SYSCONFDIR/touchd (--purge removes it)"
    fi
    exit 0
fi

BIN_DIR=${TOUCHD_BIN_DIR:-}
if [ -z "$BIN_DIR" ]; then
    swift build -c release --static-swift-stdlib --product touchd >&2
    swift build -c release --static-swift-stdlib --product touchctl >&2
    swift build -c release --static-swift-stdlib --product touchd-actions >&2
    BIN_DIR=.build/release
fi
install -D -m 0755 "$BIN_DIR/touchd" "$DESTDIR$PREFIX/bin/touchd"
install -D -m 0755 "$BIN_DIR/touchctl" "$DESTDIR$PREFIX/bin/touchctl"
install -D -m 0755 "$BIN_DIR/touchd-actions" "$DESTDIR$PREFIX/bin/touchd-actions"
# The units are edited in a directory of our own: a fixed name in /tmp, written as root, is a file anyone could have
# put there first (a symlink to somewhere else).
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
sed "s|/usr/bin/touchd-actions|$PREFIX/bin/touchd-actions|; s|/usr/share/doc/touchd/|$DOCDIR/|" systemd/touchd-actions.service \
    > "$scratch/touchd-actions.service"
install -D -m 0644 "$scratch/touchd-actions.service" "$DESTDIR$USERUNITDIR/touchd-actions.service"
install -D -m 0644 config/actions.example.json "$DESTDIR$DOCDIR/actions.example.json"
install -D -m 0644 config/touchd.example.json "$DESTDIR$DOCDIR/touchd.example.json"
sed "s|/usr/bin/touchd|$PREFIX/bin/touchd|; s|/etc/touchd/|$SYSCONFDIR/touchd/|g" systemd/touchd.service \
    > "$scratch/touchd.service"
install -D -m 0644 "$scratch/touchd.service" "$DESTDIR$UNITDIR/touchd.service"
install -D -m 0644 systemd/touchd.socket "$DESTDIR$UNITDIR/touchd.socket"
install -D -m 0644 systemd/60-touchd.rules "$DESTDIR$UDEVDIR/60-touchd.rules"
install -D -m 0644 systemd/touchd.sysusers "$DESTDIR$SYSUSERSDIR/touchd.conf"
for doc in README.md docs/protocol.md docs/scene.md docs/configuration.md docs/decoding.md docs/deployment.md \
    docs/actions.md; do
    install -D -m 0644 "$doc" "$DESTDIR$DOCDIR/$(basename "$doc")"
done
install -D -m 0644 examples/touchd_client.py "$DESTDIR$DOCDIR/touchd_client.py"
# Configuration is the administrator's: never overwritten.
[ -e "$DESTDIR$SYSCONFDIR/touchd/touchd.json" ] || install -D -m 0644 config/touchd.json "$DESTDIR$SYSCONFDIR/touchd/touchd.json"
[ -e "$DESTDIR$SYSCONFDIR/touchd/scene.json" ] || install -D -m 0644 config/demo/scene.json "$DESTDIR$SYSCONFDIR/touchd/scene.json"
echo "installed touchd under ${DESTDIR:-/}"
