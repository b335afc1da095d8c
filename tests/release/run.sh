#!/usr/bin/env bash
# The release, made and checked as a user meets it: scripts/release runs in
# two clones of HEAD at different paths, and test_release.py checks what
# they made (same bytes; static executables that run, arm64 under qemu; the
# archives' contents; lintian and dpkg -i on the packages; the image index
# pushed to a real registry and resolved by the release executable itself;
# the KRM entrypoint of each image; the krew manifest's checksums; the
# signatures), then test_from_release.py takes every path a newcomer has
# from the release files alone (no clone) to a working archfit.
#
# Usage: tests/release/run.sh [WORK_DIR]
# The libraries are built once into $ARCHFIT_RELEASE_CACHE (default
# WORK_DIR/cache) and shared by both clones; ARCHFIT_RELEASE_COLD=1 builds
# them a second time, for the second clone, in WORK_DIR/cache-b.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
source scripts/lib/common.sh
work=${1:-$top/.cache/release-test}
mkdir -p -- "$work"
work=$(cd -- "$work" && pwd)
ensure_apt_packages git python3 docker-registry skopeo lintian openssl umoci gnupg gpgv

# Both releases are signed as the release workflow signs them, with a
# throwaway key; the tests check the signatures against its public half.
export GNUPGHOME=$work/gnupg
rm -rf -- "$GNUPGHOME" && mkdir -m 0700 -- "$GNUPGHOME"
gpg --batch --quiet --passphrase '' --quick-gen-key "archfit release test <test@archfit.invalid>" ed25519 sign never
ARCHFIT_SIGNING_KEY=$(gpg --batch --with-colons --list-secret-keys | awk -F: '$1 == "fpr" { print $10; exit }')
gpg --batch --armor --export "$ARCHFIT_SIGNING_KEY" >"$work/release-key.asc"
export ARCHFIT_SIGNING_KEY ARCHFIT_RELEASE_KEY=$work/release-key.asc

# Each clone is made a release commit as a maintainer makes one
# (scripts/prepare-release, commit, tag vVERSION), with the same author,
# committer and times in both, so that both hold the same commit: the one a
# workflow pins the action by.
release_version=${ARCHFIT_RELEASE_TEST_VERSION:-0.1.0}
when=$(git -C "$top" log -1 --format=%cI)
for clone in a b; do
  rm -rf -- "$work/clone-$clone"
  git clone --quiet -- "$top" "$work/clone-$clone"
  (
    cd "$work/clone-$clone"
    scripts/prepare-release "$release_version"
    export GIT_AUTHOR_NAME="archfit release test" GIT_AUTHOR_EMAIL=test@archfit.invalid \
      GIT_COMMITTER_NAME="archfit release test" GIT_COMMITTER_EMAIL=test@archfit.invalid \
      GIT_AUTHOR_DATE=$when GIT_COMMITTER_DATE=$when
    git commit --quiet --all --message "release $release_version"
    git tag -- "v$release_version"
  )
done
[ "$(git -C "$work/clone-a" rev-parse HEAD)" = "$(git -C "$work/clone-b" rev-parse HEAD)" ] ||
  die "the two release commits differ"
cache_a=${ARCHFIT_RELEASE_CACHE:-$work/cache}
cache_b=$cache_a
[ "${ARCHFIT_RELEASE_COLD:-}" = 1 ] && cache_b=$work/cache-b

start=$SECONDS
ARCHFIT_RELEASE_CACHE=$cache_a "$work/clone-a/scripts/release" --out "$work/dist-a"
log "release a: $((SECONDS - start)) s"
start=$SECONDS
ARCHFIT_RELEASE_CACHE=$cache_b "$work/clone-b/scripts/release" --out "$work/dist-b"
log "release b: $((SECONDS - start)) s"

# The golden suite against each release executable, arm64 under qemu-user.
log "building the test suite"
cmake -S "$work/clone-a" -B "$work/build-tests" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C "$work/build-tests" archfit_tests >/dev/null
version=$("$work/clone-a/scripts/version")
for arch in amd64 arm64; do
  rm -rf -- "$work/exe-$arch"
  mkdir -p -- "$work/exe-$arch"
  tar -xzf "$work/dist-a/archfit_${version}_linux_$arch.tar.gz" -C "$work/exe-$arch" archfit
  runner=$work/exe-$arch/run
  if [ "$arch" = arm64 ]; then
    printf '#!/bin/sh\nexec qemu-aarch64-static %s "$@"\n' "$work/exe-$arch/archfit" >"$runner"
  else
    printf '#!/bin/sh\nexec %s "$@"\n' "$work/exe-$arch/archfit" >"$runner"
  fi
  chmod +x "$runner"
  log "the golden suite with the $arch release executable"
  ARCHFIT_TEST_EXECUTABLE=$runner "$work/build-tests/tests/archfit_tests" \
    --gtest_filter='Cases/Golden.*' --gtest_brief=1
done

corpus=$(ARCHFIT_REQUIRE_CORPUS=1 find_corpus)
# kubectl (kustomize), helm 3 and helm 4, and verdaccio (a local npm registry) for
# the paths from the release alone.
source scripts/lib/tools.sh
ensure_kubectl
ensure_helm3
ensure_verdaccio
command -v kpt >/dev/null || die "kpt is not installed (Debian: google-cloud-cli-kpt)"
cd "$top/tests/release"
ARCHFIT_DIST=$work/dist-a ARCHFIT_DIST_AGAIN=$work/dist-b ARCHFIT_CORPUS=$corpus \
  ARCHFIT_VERSION_EXPECTED=$version ARCHFIT_RELEASE_CLONE=$work/clone-a \
  PYTHONDONTWRITEBYTECODE=1 python3 -m unittest -v test_release test_from_release
