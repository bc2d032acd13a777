#!/usr/bin/env bash
# Sets up, builds, and replays the shipped demo recording on a 1280x800 screen, as text.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift build -c release --product touchd 2>&1 | tail -n 1
.build/release/touchd replay config/demo/panel.evemu --size 1280x800 --format text
