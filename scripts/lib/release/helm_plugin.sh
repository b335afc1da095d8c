# The helm plugin archives of a release (docs/helm.md). Source it after
# scripts/lib/release/package.sh (reproducible_tar) and scripts/lib/identity.sh.
#
# helm 4 installs archfit-VERSION.tgz (the layout `helm plugin package`
# writes: one top directory named after the plugin, plugin.yaml in it) from a
# path or an address. helm 3 cannot read a helm 4 plugin.yaml and installs
# only from an address, with plugin.yaml at the top of the archive, into a
# directory named by the archive up to "-<version>":
# archfit-VERSION-helm3.tgz holds a helm 3 plugin whose command is the
# post-renderer (`helm archfit`), and the post-renderer itself for helm 3's
# --post-renderer. Both hold the executables, bin/linux-ARCH/archfit, so that
# installing needs no download.

# helm_plugin_files SRC LICENSE DIR ARCH=EXE...: the plugin's files in DIR.
helm_plugin_files() {
  local src=$1 license=$2 dir=$3 pair
  shift 3
  mkdir -p -- "$dir/helm-plugin"
  install -m 0755 -- "$src/helm-plugin/archfit-post-render" "$src/helm-plugin/install-archfit" \
    "$dir/helm-plugin/"
  for pair in "$@"; do
    install -D -m 0755 -- "${pair#*=}" "$dir/helm-plugin/bin/linux-${pair%%=*}/archfit"
  done
  install -m 0644 -- "$license" "$dir/LICENSE"
  install -m 0644 -- "$src/docs/helm.md" "$dir/README.md"
}

# make_helm_plugins SRC VERSION LICENSE OUT STAGE ARCH=EXE...: the two archives into OUT.
make_helm_plugins() {
  local src=$1 version=$2 license=$3 out=$4 stage=$5
  shift 5
  rm -rf -- "$stage"
  # helm 4: the plugin.yaml of the repository with the release's version.
  helm_plugin_files "$src" "$license" "$stage/helm4/archfit" "$@"
  sed -E "s/^version: .*/version: $version/" "$src/plugin.yaml" >"$stage/helm4/archfit/plugin.yaml"
  grep -qx "version: $version" "$stage/helm4/archfit/plugin.yaml" || die "plugin.yaml has no version line"
  # helm 3: a plugin of helm 3's format.
  helm_plugin_files "$src" "$license" "$stage/helm3" "$@"
  cat >"$stage/helm3/plugin.yaml" <<EOF
# archfit for helm 3 (docs/helm.md): \`helm archfit\` post-renders a stream
# on stdin; as helm 3's --post-renderer, give
# "\$(helm env HELM_PLUGINS)/archfit/helm-plugin/archfit-post-render".
name: archfit
version: $version
usage: fix the node affinity and tolerations of a rendered stream
description: archfit post-render (stdin to stdout); see $(project_url)
ignoreFlags: true
command: \$HELM_PLUGIN_DIR/helm-plugin/archfit-post-render
EOF
  find "$stage" -exec touch -h -d "@$SOURCE_DATE_EPOCH" -- {} +
  reproducible_tar "$stage/helm4" "$out/archfit-$version.tgz"
  reproducible_tar "$stage/helm3" "$out/archfit-$version-helm3.tgz"
}
