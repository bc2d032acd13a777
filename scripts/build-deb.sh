#!/usr/bin/env bash
# Builds the Debian packages from this checkout (docs/deployment.md "Deploy"):
#   scripts/build-deb.sh          ->  dist/touchd_<version>_<arch>.deb  dist/python3-touchd_<version>_all.deb
# debian/ is an ordinary debhelper package (dh_installsystemd, dh_installsysusers, dh_shlibdeps write the maintainer
# scripts and Depends); this runs its build and binary targets, as dpkg-buildpackage -b would, but puts the packages
# in dist/ rather than in the checkout's parent directory. The programs are built with the Swift standard library
# linked in (--static-swift-stdlib), so the target needs no Swift. Needs a Swift 6 toolchain on PATH and the
# Build-Depends of debian/control (installed here with apt-get when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
missing=$(dpkg-checkbuilddeps 2>&1 | sed -n 's/.*Unmet build dependencies: //p' | sed 's/([^)]*)//g') || true
if [ -n "$missing" ]; then
    sudo_cmd=()
    [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
    echo "build-deb: installing the build dependencies: $missing"
    "${sudo_cmd[@]}" apt-get update -qq
    # shellcheck disable=SC2086 # a list of package names
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
dpkg-checkbuilddeps
command -v swift >/dev/null || { echo "build-deb: swift is not on PATH; install a Swift 6 toolchain first" >&2; exit 1; }
# Debian's own tools and Python (python3-touchd is built for /usr/bin/python3, not a python earlier on PATH), and
# the Swift toolchain wherever it is.
PATH=/usr/sbin:/usr/bin:/sbin:/bin:$(dirname "$(command -v swift)")
export PATH
rm -rf dist
mkdir -p dist
# noautodbgsym: no -dbgsym package (the debug symbols of a statically linked Swift runtime, tens of MB).
export DEB_BUILD_OPTIONS="${DEB_BUILD_OPTIONS:+$DEB_BUILD_OPTIONS }noautodbgsym"
export TOUCHD_DEB_DIR=dist
debian/rules clean
debian/rules build
fakeroot_cmd=()
[ "$(id -u)" -eq 0 ] || fakeroot_cmd=(fakeroot)
"${fakeroot_cmd[@]}" debian/rules binary
debian/rules clean >/dev/null
ls -l dist/*.deb
