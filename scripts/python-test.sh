#!/usr/bin/env bash
# Tests the Python client (clients/python) as a user gets it: a virtual environment (default .build/python-venv) made
# with whichever python3 is on PATH, the package installed from its directory with pip (not editable, so the
# packaging itself is tested), pytest and mypy from PyPI; then mypy --strict over the package and its tests, and
# the tests: the protocol layer on hand-written lines, and both clients against the real daemon replaying
# ../shared/recordings. touchd is not built here: CI's `swift build` makes .build/debug/touchd (TOUCHD_BIN overrides).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
venv=${TOUCHD_PYTHON_VENV:-$root/.build/python-venv}
export TOUCHD_BIN=${TOUCHD_BIN:-$root/.build/debug/touchd}
[ -x "$TOUCHD_BIN" ] || { echo "python-test: $TOUCHD_BIN is not built; run 'swift build --product touchd'" >&2; exit 1; }

python=$(command -v python3) || { echo "python-test: no python3 on PATH (scripts/setup.sh installs it)" >&2; exit 1; }
# A venv made by another interpreter (pyenv's, then Debian's) or half made is made again.
if ! "$venv/bin/python" -c 'import sys; sys.exit(sys.base_prefix != sys.argv[1])' \
    "$("$python" -c 'import sys; print(sys.base_prefix)')" 2>/dev/null; then
    rm -rf "$venv"
    "$python" -m venv "$venv" || { echo "python-test: '$python -m venv' failed (Debian: apt-get install python3-venv)" >&2; exit 1; }
fi
pip=("$venv/bin/python" -m pip --quiet --disable-pip-version-check)
"${pip[@]}" install "pytest==9.2.0" "mypy==2.4.1"
# --force-reinstall: the version does not change between commits, the code does. setuptools builds inside the
# project (build/, src/*.egg-info); a module deleted from src/ would live on in a stale build/lib, so neither stays.
clean() { rm -rf "$root/clients/python/build" "$root/clients/python/src/"*.egg-info; }
clean
"${pip[@]}" install --force-reinstall --no-deps "$root/clients/python"
clean

cd "$root/clients/python/tests"
# The installed package by name (so its py.typed is what makes it typed), and the tests that use it.
mypy=("$venv/bin/mypy" --strict --config-file ../pyproject.toml --cache-dir "$venv/mypy-cache")
"${mypy[@]}" -p touchd
"${mypy[@]}" . ../examples

# The venv's touchd, never src/: pytest runs from the tests folder, which is all it puts on sys.path.
export TOUCHD_PYTHON_INSTALLED=1
status=0
"$venv/bin/python" -m pytest -p no:cacheprovider -q "$@" || status=$?
case $status in
    0) ;;
    5) echo "python-test: pytest collected no tests" >&2; exit 1 ;;
    *) exit "$status" ;;
esac
