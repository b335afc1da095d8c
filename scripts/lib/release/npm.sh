# The npm packages of a release (docs/install.md), for hosts that have node
# and nothing else: pre-commit.ci, which has no compiler and no Docker, runs
# the `language: node` hooks (archfit-fix-npm, archfit-lint-npm) from them.
# As esbuild ships its executables: SCOPE/cli holds the command (npm/archfit.js)
# and names one package per platform as an optional dependency; each platform
# package (os and cpu set) holds that platform's executable, so npm installs
# only the one this machine can run. Source it after scripts/lib/identity.sh.

# npm_cpu ARCH: node's name for the architecture.
npm_cpu() {
  case $1 in
    amd64) echo x64 ;;
    arm64) echo arm64 ;;
    *) die "no npm cpu for $1" ;;
  esac
}

# make_npm_packages SRC VERSION LICENSE OUT STAGE ARCH=EXE...: SCOPE-cli-VERSION.tgz and
# SCOPE-linux-CPU-VERSION.tgz into OUT (npm pack's names).
make_npm_packages() {
  local src=$1 version=$2 license=$3 out=$4 stage=$5 pair arch cpu scope url optional=""
  shift 5
  scope=$(project_value npm-scope)
  url=$(project_url)
  rm -rf -- "$stage"
  for pair in "$@"; do
    arch=${pair%%=*}
    cpu=$(npm_cpu "$arch")
    mkdir -p -- "$stage/linux-$cpu/bin"
    install -m 0755 -- "${pair#*=}" "$stage/linux-$cpu/bin/archfit"
    install -m 0644 -- "$license" "$stage/linux-$cpu/LICENSE"
    cat >"$stage/linux-$cpu/package.json" <<EOF
{
  "name": "$scope/linux-$cpu",
  "version": "$version",
  "description": "The archfit executable for linux/$arch (installed by $scope/cli)",
  "license": "Apache-2.0",
  "repository": {"type": "git", "url": "git+$url.git"},
  "os": ["linux"],
  "cpu": ["$cpu"],
  "preferUnplugged": true
}
EOF
    optional+="${optional:+, }\"$scope/linux-$cpu\": \"$version\""
  done
  mkdir -p -- "$stage/cli/bin"
  sed "s#@SCOPE#$scope#g" "$src/npm/archfit.js" >"$stage/cli/bin/archfit.js"
  chmod 0755 "$stage/cli/bin/archfit.js"
  install -m 0644 -- "$license" "$stage/cli/LICENSE"
  install -m 0644 -- "$src/README.md" "$stage/cli/README.md"
  cat >"$stage/cli/package.json" <<EOF
{
  "name": "$scope/cli",
  "version": "$version",
  "description": "archfit: node affinity and tolerations that fit the CPU architectures of each pod's images",
  "license": "Apache-2.0",
  "homepage": "$url",
  "repository": {"type": "git", "url": "git+$url.git"},
  "bin": {"archfit": "bin/archfit.js"},
  "engines": {"node": ">=18"},
  "optionalDependencies": {$optional}
}
EOF
  local dir
  for dir in "$stage"/*/; do
    (cd "$dir" && npm pack --silent --pack-destination "$out" >/dev/null) ||
      die "npm pack failed in $dir"
  done
}
