#!/usr/bin/env bash
# The readiness report's HTML in Debian's Chromium, headless and offline
# (tests/readiness/browser.py); installs chromium when missing.
# usage: browser.sh ARCHFIT SOURCE_DIR
set -euo pipefail
archfit=$1
cd "$2"
source scripts/lib/common.sh
ensure_apt_packages chromium util-linux
exec python3 tests/readiness/browser.py "$archfit" "$(command -v chromium)"
