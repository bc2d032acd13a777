#!/usr/bin/env bash
# The test command: README and CI both run this.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift build --build-tests
swift test --skip-build
