#!/usr/bin/env bash
# Installs what touchd needs to build and test on Debian 12 (run as root, or with sudo available).
# Swift itself is expected on PATH (swift.org toolchain, 6.0 or newer).
set -euo pipefail

# tmux: scripts/view-test.sh drives touchctl view in it. (Chromium, large, is installed by scripts/html-test.sh.)
packages=(libevdev-dev libudev-dev libsystemd-dev pkg-config tmux)
# scripts/python-test.sh: a python3 with its venv module (Debian ships ensurepip apart, in python3-venv)
packages+=(python3 python3-venv)
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if ((${#missing[@]})); then
    sudo_cmd=()
    [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
    "${sudo_cmd[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
command -v swift >/dev/null || { echo "setup: swift is not on PATH; install a Swift 6 toolchain first" >&2; exit 1; }
