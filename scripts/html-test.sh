#!/usr/bin/env bash
# touchd replay --html in headless Chromium (Tests/html/html_test.py says what is checked). Installs Debian's
# chromium if it is missing (about 100 MB with its libraries; tens of seconds on a Debian mirror); builds the
# debug touchd.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v chromium >/dev/null; then
    sudo_cmd=()
    [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
    "${sudo_cmd[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core
fi
nice -n 10 swift build --product touchd >/dev/null
exec python3 Tests/html/html_test.py "$@"
