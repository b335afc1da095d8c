# The libraries a release executable links in, as Debian source packages:
# pinned to exact versions, their .dsc files to exact bytes. Source it after
# scripts/lib/common.sh.
#
# apt checks each .dsc against the signed Sources index of the suite, this
# file pins the .dsc itself, and dpkg-source checks every tarball the .dsc
# names against its checksums and applies Debian's patches (security fixes
# included). Nothing comes from anywhere but the Debian archive.
#
# When Debian publishes a new revision, the old one leaves the archive and
# fetching fails saying which version is there now: update the pin and its
# checksum here, in one commit, and say so in its message.

# name version sha256-of-the-.dsc
RELEASE_SOURCES=(
  "libyaml 0.2.5-1 1edbf86e5cd76937ff62892ba6c2537456d645d834d4cd4a82430b8be7051bf4"
  "openssl 3.0.20-1~deb12u2 a614474a2773c23b10c0d65f4eccbcf93fdac4749afb7c26d76e1b0340154d3d"
  "c-ares 1.18.1-3 91d95bb080e4cd1d0d507f4693496e323a593f6611161361fd76735292bda6b6"
  "nghttp2 1.52.0-1+deb12u3 d4fcb364e461616ef63cb0653a71f08a9ae23703d497745e90160ed7d1eda393"
  "curl 7.88.1-10+deb12u15 2744f12e3aef161c0361743fa1b318296b122e566e47f381e4a63320fbcc23f4"
)
# The heap, built on its own (scripts/lib/release/mimalloc.sh): a new pin
# here does not build the libraries above again.
ALLOCATOR_SOURCES=(
  "mimalloc 2.0.9+ds-2 fb324e4faaa693d90f5bf0a8e652ea96f41d4c7f6ea432ea819756e8f70ce42d"
)

# The suites the pins come from (bookworm and its security and point updates).
RELEASE_SUITES=(
  "http://deb.debian.org/debian bookworm"
  "http://deb.debian.org/debian bookworm-updates"
  "http://deb.debian.org/debian-security bookworm-security"
)

# apt_private DIR ARGS...: apt-get with a sources list of its own under DIR
# (deb-src entries only), so that the machine's apt configuration is neither
# read nor changed.
apt_private() {
  local dir=$1
  shift
  apt-get -o Dir::Etc::sourcelist="$dir/sources.list" -o Dir::Etc::sourceparts=- \
    -o Dir::State::Lists="$dir/lists" -o Dir::Cache="$dir/cache" \
    -o APT::Get::List-Cleanup=0 "$@"
}

# fetch_sources CACHE: every pinned source package, downloaded and unpacked
# into CACHE/src/<name>_<version>/ (once; later calls reuse it).
fetch_sources() {
  local cache=$1 apt=$1/apt entry name version sum
  local missing=()
  for entry in "${RELEASE_SOURCES[@]}" "${ALLOCATOR_SOURCES[@]}"; do
    read -r name version sum <<<"$entry"
    [ -f "$cache/src/${name}_$version/.unpacked" ] || missing+=("$entry")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  ensure_apt_packages dpkg-dev debian-archive-keyring
  mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$cache/dl" "$cache/src"
  local suite
  : >"$apt/sources.list"
  for suite in "${RELEASE_SUITES[@]}"; do
    printf 'deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] %s main\n' \
      "$suite" >>"$apt/sources.list"
  done
  log "reading Debian's source indexes (bookworm)"
  apt_private "$apt" update -qq >"$apt/update.log" 2>&1 ||
    { cat "$apt/update.log" >&2; die "apt-get update of the deb-src entries failed"; }
  for entry in "${missing[@]}"; do
    read -r name version sum <<<"$entry"
    log "fetching the Debian source package $name $version"
    (cd "$cache/dl" && apt_private "$apt" source --download-only -qq -- "$name=$version") \
      >"$cache/dl/$name.log" 2>&1 || {
      cat "$cache/dl/$name.log" >&2
      die "cannot fetch $name $version from Debian; the archive has: $(apt_private "$apt" \
        showsrc -- "$name" 2>/dev/null | sed -n 's/^Version: //p' | tr '\n' ' ')(update the pin in scripts/lib/release/sources.sh)"
    }
    local dsc=$cache/dl/${name}_${version#*:}.dsc
    [ -f "$dsc" ] || die "apt-get source $name=$version did not give $dsc"
    local got
    got=$(sha256sum -- "$dsc" | cut -c1-64)
    [ "$got" = "$sum" ] ||
      die "$dsc has sha256 $got, but scripts/lib/release/sources.sh pins $sum: refusing to build from it"
    rm -rf -- "$cache/src/${name}_$version"
    # dpkg-source checks the tarballs against the .dsc and applies the patches.
    dpkg-source -x -- "$dsc" "$cache/src/${name}_$version" >"$cache/dl/$name.unpack.log" 2>&1 ||
      { cat "$cache/dl/$name.unpack.log" >&2; die "dpkg-source could not unpack $dsc"; }
    touch "$cache/src/${name}_$version/.unpacked"
  done
}

# source_dir CACHE NAME: where the pinned source of NAME was unpacked.
source_dir() {
  local cache=$1 want=$2 entry name version sum
  for entry in "${RELEASE_SOURCES[@]}" "${ALLOCATOR_SOURCES[@]}"; do
    read -r name version sum <<<"$entry"
    [ "$name" = "$want" ] && { printf '%s\n' "$cache/src/${name}_$version"; return 0; }
  done
  die "no pinned source package named $want"
}

# sources_key: changes whenever a pin does.
sources_key() {
  printf '%s\n' "${RELEASE_SOURCES[@]}" | sha256sum | cut -c1-16
}
