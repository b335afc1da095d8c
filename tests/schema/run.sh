#!/usr/bin/env bash
# Every document archfit fix writes in the tests is valid for the API server's
# schema: the golden outputs, the generated streams of the property test and
# the fixed corpus, validated with the kubernetes-models package.
# usage: run.sh ARCHFIT_TESTS_BINARY SOURCE_DIR [CORPUS_DIR]
set -euo pipefail
tests=$1
root=$2
corpus=${3:-}
cd "$root"
source scripts/lib/common.sh
source scripts/lib/tools.sh
ensure_schema_tools
command -v node >/dev/null || die "node is needed for the schema check (apt-get install nodejs)"

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# The property test and the corpus test write what they fix into $out.
filter='GeneratedManifests.*'
[ -z "$corpus" ] || filter+=':CorpusFix.KeepsTheLawsAndChangesOnlyPlacement'
ARCHFIT_OUTPUT_DIR=$out "$tests" --gtest_brief=1 --gtest_filter="$filter" >/dev/null

pairs=()
for dir in tests/golden/*/; do
  pairs+=("$root/${dir}input.yaml:$root/${dir}expected.yaml")
done
for input in "$out"/*.input.yaml; do
  pairs+=("$input:${input%.input.yaml}.yaml")
done
[ ${#pairs[@]} -gt 100 ] || die "expected golden, generated and corpus outputs; found ${#pairs[@]} files"
# ES modules resolve packages from the script's own directory.
cp tests/schema/validate.mjs "$SCHEMA_TOOLS/validate.mjs"
node "$SCHEMA_TOOLS/validate.mjs" "${pairs[@]}"
