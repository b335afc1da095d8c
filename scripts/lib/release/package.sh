# Archives, Debian packages, checksums and the krew manifest of a release.
# Source it after scripts/lib/release/sources.sh. Every file is written
# reproducibly: owners 0, times SOURCE_DATE_EPOCH, names sorted, gzip
# without a name or time.

# reproducible_tar DIR OUT.tar.gz: DIR's files, at the top of the archive.
reproducible_tar() {
  local dir=$1 out=$2
  (cd "$dir" && LC_ALL=C tar --sort=name --format=gnu --mtime="@$SOURCE_DATE_EPOCH" \
    --owner=0 --group=0 --numeric-owner --mode='u+rw,go+r,go-w' -cf - -- *) |
    gzip -9 -n >"$out"
}

# license_text SRC CACHE: archfit's license, then the copyright and license
# of each library linked into the executable (as Debian ships them).
license_text() {
  local src=$1 cache=$2 entry name version sum
  cat -- "$src/LICENSE"
  printf '\n\n%s\n' "The release executable links in the following libraries, built from Debian's source packages."
  for entry in "${RELEASE_SOURCES[@]}"; do
    read -r name version sum <<<"$entry"
    printf '\n==== %s %s (Debian source package) ====\n\n' "$name" "$version"
    cat -- "$(source_dir "$cache" "$name")/debian/copyright"
  done
  printf '\n==== GNU C Library and GCC runtime libraries (Debian bookworm) ====\n\n'
  printf '%s\n' "glibc is under the GNU LGPL 2.1 or later; libstdc++ and libgcc under the GPL 3 with the GCC Runtime Library Exception. The complete sources of archfit and of every library above are public: this repository at the release's tag, and Debian's source packages named above, so the executable can be relinked with a modified library."
}

# make_archive SRC CACHE ARCH VERSION EXE OUT: archfit_VERSION_linux_ARCH.tar.gz.
make_archive() {
  local src=$1 cache=$2 arch=$3 version=$4 exe=$5 out=$6
  local stage=$cache/archive-$arch
  rm -rf -- "$stage"
  mkdir -p -- "$stage"
  install -m 0755 -- "$exe" "$stage/archfit"
  license_text "$src" "$cache" >"$stage/LICENSE"
  archive_readme "$version" >"$stage/README.md"
  touch -d "@$SOURCE_DATE_EPOCH" -- "$stage"/*
  reproducible_tar "$stage" "$out/archfit_${version}_linux_$arch.tar.gz"
}

# archive_readme VERSION: the README of the executable's archive, which
# starts from what the archive holds (the repository's README starts from a
# clone).
archive_readme() {
  cat <<EOF
# archfit $1

archfit places Kubernetes pods on nodes their images can run on: it reads rendered manifests,
finds the platforms of every image (a registry, a cache or a lock file) and adds the node
affinity and tolerations each pod template needs, or reports what is missing.

This archive holds the static executable, \`archfit\`, for Linux. Try it on a manifest of yours,
or on the bundled examples of \`archfit-plugins-$1.tar.gz\` (same release), offline:

\`\`\`sh
./archfit fix --diff examples/            # what fix would change; examples/ has its lock file
./archfit lint deploy/                    # your manifests: findings, exit 1 on errors
./archfit lock --set nginx:1.27=linux/amd64,linux/arm64   # an image's platforms, no registry
\`\`\`

Without a lock file archfit asks the registries (\`archfit lock\` writes what they say into
\`archfit.lock\`, for offline runs). \`archfit --help\` and \`archfit COMMAND --help\` list the
commands; the documentation is at $(project_url) (docs/).
EOF
}

# deb_version VERSION: a Debian version for a native package (no hyphen):
# 1.2.3 stays, 1.2.3-4-gabcdef0 becomes 1.2.3+4+gabcdef0 (after 1.2.3).
deb_version() {
  printf '%s\n' "${1//-/+}"
}

# make_deb SRC CACHE ARCH VERSION EXE OUT: archfit_DEBVERSION_ARCH.deb.
make_deb() {
  local src=$1 cache=$2 arch=$3 version=$4 exe=$5 out=$6
  ensure_apt_packages dpkg-dev
  local dv root=$cache/deb-$arch
  dv=$(deb_version "$version")
  rm -rf -- "$root"
  mkdir -p -- "$root/DEBIAN" "$root/usr/bin" "$root/usr/share/doc/archfit" \
    "$root/usr/share/lintian/overrides" "$root/usr/share/man/man1"
  install -m 0755 -- "$exe" "$root/usr/bin/archfit"
  {
    printf 'archfit (%s) unstable; urgency=medium\n\n' "$dv"
    printf '  * Release %s of %s.\n\n' "$version" "$(project_url)"
    printf ' -- %s  %s\n' "$(project_maintainer)" "$(LC_ALL=C date -u -R -d "@$SOURCE_DATE_EPOCH")"
  } | gzip -9 -n >"$root/usr/share/doc/archfit/changelog.gz"
  {
    printf 'archfit\n\nUpstream: %s\n\n' "$(project_url)"
    printf 'archfit is licensed under the Apache License, Version 2.0; on Debian\n'
    printf 'systems its text is in /usr/share/common-licenses/Apache-2.0.\n\n'
    license_text "$src" "$cache" | sed -n '/^The release executable links in/,$p'
  } >"$root/usr/share/doc/archfit/copyright"
  # The package carries the release's static executable, byte for byte the
  # one in the archive: one build, checked once, on every distribution.
  # Debian asks packages to link its shared libraries instead; these
  # overrides say that the static build is the point of this package.
  cat >"$root/usr/share/lintian/overrides/archfit" <<'EOF'
# The release executable is static by design (the same bytes as the archive).
archfit: statically-linked-binary [usr/bin/archfit]
archfit: embedded-library curl [usr/bin/archfit]
archfit: embedded-library libyaml [usr/bin/archfit]
EOF
  man_page "$version" | gzip -9 -n >"$root/usr/share/man/man1/archfit.1.gz"
  local size
  size=$(du -k -s --apparent-size -- "$root/usr" | cut -f1)
  cat >"$root/DEBIAN/control" <<EOF
Package: archfit
Version: $dv
Architecture: $arch
Maintainer: $(project_maintainer)
Installed-Size: $size
Section: admin
Priority: optional
Homepage: $(project_url)
Description: places Kubernetes pods on nodes their images can run on
 archfit reads rendered Kubernetes manifests (plain YAML, kustomize and helm
 output), finds the platforms of every image from its registry, a cache or a
 lock file, and adds the node affinity and tolerations each pod template
 needs on clusters that mix amd64, arm64 and other nodes; or reports what is
 missing. It also checks node pools and spreads replicas over node groups.
 .
 This package holds the static release executable.
EOF
  (cd "$root" && find usr -type f -print0 | LC_ALL=C sort -z | xargs -0 md5sum --) \
    >"$root/DEBIAN/md5sums"
  find "$root" -exec touch -h -d "@$SOURCE_DATE_EPOCH" -- {} +
  chmod -R go-w -- "$root"
  local deb=$out/archfit_${dv}_$arch.deb
  dpkg-deb --root-owner-group -Zxz --build -- "$root" "$deb" >/dev/null
  ensure_apt_packages lintian
  local report
  report=$(lintian --fail-on error -- "$deb" 2>&1) ||
    die "lintian finds errors in $(basename -- "$deb"): $report"
}

# man_page VERSION: a short archfit(1) in roff.
man_page() {
  cat <<EOF
.TH ARCHFIT 1 "" "archfit $1" "User Commands"
.SH NAME
archfit \- places Kubernetes pods on nodes their images can run on
.SH SYNOPSIS
.B archfit
.I command
.RI [ options ]
.RI [ file ...]
.SH DESCRIPTION
archfit reads rendered Kubernetes manifests, finds the platforms of every
image, and adds the node affinity and tolerations each pod template needs
.RB ( "archfit fix" ),
or reports what is missing
.RB ( "archfit lint" ).
Run
.B archfit \-\-help
and
.B archfit
.I command
.B \-\-help
for the commands and their options.
.SH SEE ALSO
$(project_url)
EOF
}

# write_checksums OUT: SHA256SUMS of every file of the release in OUT, sorted:
# the regular files at the top and those of the image's OCI layout. The
# signatures (.asc, .prov) are not in it: they attest it.
write_checksums() {
  local out=$1 sums
  sums=$(cd "$out" && find . -type f \( ! -path './*/*' -o -path './archfit-image/*' \) \
    ! -name SHA256SUMS ! -name '*.asc' ! -name '*.prov' -printf '%P\n' |
    LC_ALL=C sort | xargs -d '\n' sha256sum --)
  printf '%s\n' "$sums" >"$out/SHA256SUMS"
}

# sign_release SRC OUT VERSION: with the OpenPGP key ARCHFIT_SIGNING_KEY names
# (a key id or fingerprint in gpg's keyring: the release workflow imports the
# secret), SHA256SUMS.asc, the detached signature of SHA256SUMS, and the
# provenance files helm 4 verifies plugin archives with (.prov: a clear-signed
# message naming the archive's SHA-256). The signature must verify against
# the project's public key (project.conf's release-key; ARCHFIT_RELEASE_KEY
# for another): a release signed by any other key would install nowhere.
# Without ARCHFIT_SIGNING_KEY the release is unsigned, and says so.
sign_release() {
  local src=$1 out=$2 version=$3 key archive
  if [ -z "${ARCHFIT_SIGNING_KEY:-}" ]; then
    log "warning: ARCHFIT_SIGNING_KEY is not set: this release is not signed, and install.sh refuses it"
    return 0
  fi
  key=${ARCHFIT_RELEASE_KEY:-$src/$(project_value release-key)}
  gpg --batch --yes --local-user "$ARCHFIT_SIGNING_KEY" --armor --detach-sign \
    --output "$out/SHA256SUMS.asc" -- "$out/SHA256SUMS"
  for archive in "$out/archfit-$version.tgz" "$out/archfit-$version-helm3.tgz"; do
    [ -f "$archive" ] || continue
    {
      printf 'apiVersion: v1\nname: archfit\nversion: %s\n\n...\nfiles:\n' "$version"
      printf '  %s: sha256:%s\n' "$(basename -- "$archive")" "$(sha256sum -- "$archive" | cut -c1-64)"
    } | gpg --batch --yes --local-user "$ARCHFIT_SIGNING_KEY" --digest-algo SHA512 --clearsign \
      --output "$archive.prov"
  done
  local check
  check=$(mktemp -d)
  gpg --batch --yes --dearmor --output "$check/key.gpg" -- "$key" 2>/dev/null || cp -- "$key" "$check/key.gpg"
  mkdir -m 0700 "$check/home"
  GNUPGHOME=$check/home gpgv --keyring "$check/key.gpg" -- "$out/SHA256SUMS.asc" "$out/SHA256SUMS" 2>/dev/null || {
    rm -rf -- "$check"
    die "SHA256SUMS.asc does not verify against $key: the signing key ($ARCHFIT_SIGNING_KEY) is not the project's; put its public key in $(project_value release-key) (docs/install.md)"
  }
  rm -rf -- "$check"
  log "signed SHA256SUMS and the helm plugin archives with $ARCHFIT_SIGNING_KEY"
}

# make_plugins_archive SRC VERSION LICENSE OUT: archfit-plugins-VERSION.tar.gz,
# what a user needs beside the executable and has no clone for: the
# kustomize plugin, the Argo CD plugin files, the examples with their lock
# file, and the installer the kustomize plugin runs, under one top directory.
make_plugins_archive() {
  local src=$1 version=$2 license=$3 out=$4 stage
  stage=$(mktemp -d)
  local top=$stage/archfit-plugins-$version
  mkdir -p -- "$top/scripts"
  cp -R -- "$src/kustomize-plugin" "$src/argocd-cmp" "$src/examples" "$top/"
  install -m 0755 -- "$src/scripts/install" "$top/scripts/install"
  printf '%s\n' "$version" >"$top/VERSION"
  install -m 0644 -- "$license" "$top/LICENSE"
  cat >"$top/README.md" <<EOF
# archfit $version: plugins and examples

What a release of archfit holds besides the executable (docs at $(project_url)):

- \`examples/\`: manifests, their \`.archfit.yaml\` and \`archfit.lock\`, so that
  \`archfit fix --diff examples/\` runs offline.
- \`kustomize-plugin/\`: the kustomize exec plugin (\`KUSTOMIZE_PLUGIN_HOME=\$PWD/kustomize-plugin\`);
  it installs archfit $version on first use (\`scripts/install\`, signature and checksum checked).
- \`argocd-cmp/\`: the Argo CD config management plugin (sidecar patch, plugin files).
- \`scripts/install\`: the installer, as the release's \`install.sh\`.
EOF
  find "$stage" -exec touch -h -d "@$SOURCE_DATE_EPOCH" -- {} +
  (cd "$stage" && LC_ALL=C tar --sort=name --format=gnu --mtime="@$SOURCE_DATE_EPOCH" \
    --owner=0 --group=0 --numeric-owner --mode='u+rw,go+r,go-w' -cf - -- "archfit-plugins-$version") |
    gzip -9 -n >"$out/archfit-plugins-$version.tar.gz"
  rm -rf -- "$stage"
}

# make_krew_manifest SRC VERSION OUT: archfit.krew.yaml, the krew plugin
# manifest (kubectl archfit), with each archive's address and checksum; not
# named archfit.yaml, which reads like archfit's configuration.
make_krew_manifest() {
  local src=$1 version=$2 out=$3 arch archive
  {
    cat <<EOF
apiVersion: krew.googlecontainertools.github.com/v1alpha2
kind: Plugin
metadata:
  name: archfit
spec:
  version: v$version
  homepage: $(project_url)
  shortDescription: Place pods on nodes their images can run on
  description: |
    Reads rendered manifests, finds the platforms of every image and adds the
    node affinity and tolerations pod templates need on clusters that mix
    amd64 and arm64 nodes, or reports what is missing (kubectl archfit lint).
  platforms:
EOF
    for archive in "$out"/archfit_"${version}"_linux_*.tar.gz; do
      arch=${archive##*_linux_}
      arch=${arch%.tar.gz}
      cat <<EOF
  - selector:
      matchLabels:
        os: linux
        arch: $arch
    uri: $(release_download_url "$version" "$(basename -- "$archive")")
    sha256: $(sha256sum -- "$archive" | cut -c1-64)
    bin: archfit
    files:
    - from: archfit
      to: .
    - from: LICENSE
      to: .
EOF
    done
  } >"$out/archfit.krew.yaml"
}
