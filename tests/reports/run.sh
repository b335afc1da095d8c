#!/usr/bin/env bash
# Every report format read back by what reads it in CI (tests/reports/check.py),
# with Microsoft's SARIF Multitool installed from npm when missing.
# usage: run.sh ARCHFIT SOURCE_DIR [CORPUS_DIR]
set -euo pipefail
archfit=$1
root=$2
corpus=${3:-}
cd "$root"
source scripts/lib/common.sh
source scripts/lib/tools.sh
ensure_sarif_multitool
exec python3 tests/reports/check.py "$archfit" "$root" "$SARIF_MULTITOOL" "$corpus"
