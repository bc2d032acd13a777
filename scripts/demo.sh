#!/usr/bin/env bash
# Sets up, builds, and replays the shipped demo recording through the shipped demo scene: every finger event
# with its region, every gesture, as a table; the picture goes to demo.svg.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift build -c release --product touchd 2>&1 | tail -n 1
.build/release/touchd replay config/demo/panel.evemu --scene config/demo/scene.json --format text --svg demo.svg
echo "picture: $(pwd)/demo.svg"
