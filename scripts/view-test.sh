#!/usr/bin/env bash
# touchctl view as a person uses it: in tmux, against a daemon replaying a real recording (Tests/view/view_test.py
# says what is checked). Installs tmux if it is missing; builds the debug touchd and touchctl.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v tmux >/dev/null; then
    sudo_cmd=()
    [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
    "${sudo_cmd[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends tmux
fi
nice -n 10 swift build --product touchd >/dev/null
nice -n 10 swift build --product touchctl >/dev/null
exec python3 Tests/view/view_test.py "$@"
