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
  install -m 0644 -- "$src/README.md" "$stage/README.md"
  touch -d "@$SOURCE_DATE_EPOCH" -- "$stage"/*
  reproducible_tar "$stage" "$out/archfit_${version}_linux_$arch.tar.gz"
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

# write_checksums OUT: SHA256SUMS of the regular files in OUT, sorted.
write_checksums() {
  local out=$1 sums
  sums=$(cd "$out" && find . -maxdepth 1 -type f ! -name SHA256SUMS -printf '%f\n' |
    LC_ALL=C sort | xargs -d '\n' sha256sum --)
  printf '%s\n' "$sums" >"$out/SHA256SUMS"
}

# make_krew_manifest SRC VERSION OUT: archfit.yaml, the krew plugin manifest
# (kubectl archfit), with each archive's address and checksum.
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
  } >"$out/archfit.yaml"
}
