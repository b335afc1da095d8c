#!/usr/bin/env bash
# The surfaces end to end: action.yml checked by action-validator and run as
# a GitHub runner would (test_action.py) and its shell helpers under hostile
# values (test_action_lib.py), the pre-commit hooks run by the real
# pre-commit (test_pre_commit.py), the helm post-renderer under the real helm 3
# and 4 (test_helm.py), the kustomize plugin under kubectl kustomize
# (test_kustomize.py), the split against kustomize overlays (test_spread_oracle.py), the Argo CD plugins' commands (test_argocd.py), archfit krm on
# golden ResourceLists as exec runtimes run it (test_krm.py), the npm packages and
# the node pre-commit hooks against a local npm registry (test_npm.py).
# Installs what they need when missing.
# usage: run.sh ARCHFIT SOURCE_DIR STATE_DIR [--prepare | TEST...]
# --prepare installs the tools and validates the workflows, and runs no test;
# TEST... runs those modules only; with neither, everything.
set -euo pipefail
archfit=$1
root=$2
state=$3
shift 3
cd "$root"
source scripts/lib/common.sh
source scripts/lib/tools.sh
ensure_apt_packages pre-commit python3-yaml nodeenv git docker-registry skopeo patch
ensure_action_validator
ensure_sarif_multitool
ensure_helm3
ensure_kubectl
ensure_verdaccio

# action.yml, the workflows docs/ci.md gives to copy and the project's own,
# each validated as a workflow file; every action they use pinned by a commit.
validate_workflows() {
  log "action-validator action.yml"
  "$ACTION_VALIDATOR" action.yml
  # The workflows docs/ci.md gives to copy, each validated as a workflow file.
  workflows=$(mktemp -d)
  trap 'rm -rf "$workflows"' EXIT
  python3 - docs/ci.md "$workflows" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
blocks = re.findall(r"<!-- workflow: ([\w-]+) -->\n```yaml\n(.*?)```", text, re.S)
assert len(blocks) >= 8, "docs/ci.md: expected the eight documented workflows"
for name, body in blocks:
    open(f"{sys.argv[2]}/{name}.yml", "w").write(body)
PY
  for wf in "$workflows"/*.yml; do
    log "action-validator docs/ci.md workflow $(basename "$wf")"
    "$ACTION_VALIDATOR" "$wf"
  done
  # The project's own workflows.
  for wf in .github/workflows/*.yml; do
    log "action-validator $wf"
    "$ACTION_VALIDATOR" "$wf"
  done
  # The action and the workflows use other actions pinned by commit.
  python3 - action.yml .github/workflows/*.yml <<'PY'
import re, sys
for name in sys.argv[1:]:
    for n, line in enumerate(open(name), 1):
        m = re.match(r"\s*(?:-\s+)?uses:\s*(\S+)", line)
        if m and not m.group(1).startswith("./") and not re.fullmatch(r"[\w.-]+/[\w./-]+@[0-9a-f]{40}", m.group(1)):
            sys.exit(f"{name}:{n}: {m.group(1)} is not pinned by a commit")
print("==> every action used is pinned by a commit", file=sys.stderr)
PY
}
if ! (($#)) || [ "$1" = --prepare ]; then
  validate_workflows
fi
[ "${1:-}" = --prepare ] && exit 0

# pre-commit try-repo commits into a shadow repository: an identity for it,
# without touching the machine's git configuration.
export GIT_AUTHOR_NAME="archfit e2e" GIT_AUTHOR_EMAIL="e2e@archfit.invalid" \
  GIT_COMMITTER_NAME="archfit e2e" GIT_COMMITTER_EMAIL="e2e@archfit.invalid"
mkdir -p "$state"
export ARCHFIT_SOURCE=$root ARCHFIT_BINARY=$archfit ARCHFIT_E2E_STATE=$state HELM=$HELM3 HELM3 HELM4 KUBECTL \
  SARIF_MULTITOOL VERDACCIO PYTHONDONTWRITEBYTECODE=1 PYTHONWARNINGS=ignore::ResourceWarning
cd tests/e2e
if (($#)); then
  exec python3 -m unittest -v "$@"
fi
exec python3 -m unittest -v test_action test_action_lib test_pre_commit test_helm test_kustomize test_spread_oracle test_argocd test_krm test_npm
