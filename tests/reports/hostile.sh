#!/usr/bin/env bash
# Hostile names and values through every report format and surface, each
# output read back by what reads it (tests/reports/hostile.py), with the
# SARIF Multitool and markdown-it installed from npm when missing.
# usage: hostile.sh ARCHFIT SOURCE_DIR
set -euo pipefail
archfit=$1
root=$2
cd "$root"
source scripts/lib/common.sh
source scripts/lib/tools.sh
ensure_sarif_multitool
ensure_markdown_it
exec python3 tests/reports/hostile.py "$archfit" "$SARIF_MULTITOOL" "$MARKDOWN_IT_DIR"
