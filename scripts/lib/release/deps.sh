# Building the pinned libraries as static archives for one architecture.
# Source it after scripts/lib/common.sh and scripts/lib/release/sources.sh.
#
# Each library is configured in its own source copy with prefix /usr/local
# and installed under a staging root, so that no path of this machine is
# compiled into the executable (two clones in different directories give the
# same bytes). What each one is built with, and without:
#   libyaml  the parser
#   openssl  libcrypto and libssl only (build_libs): no shared objects,
#            modules, engines or tests; its configuration directory is /etc/ssl
#   c-ares   name resolution inside libcurl, so that a static executable
#            needs no glibc NSS modules at run time (it reads /etc/hosts and
#            /etc/resolv.conf itself)
#   nghttp2  HTTP/2 for libcurl
#   curl     libcurl with HTTP and HTTPS only (no FTP, LDAP, RTMP, SSH, SMB,
#            mail protocols, .netrc, GSSAPI, IDN, PSL or compression) and no CA path
#            compiled in: archfit finds the CA bundle at run time

# The GNU triplet and OpenSSL target of a Debian architecture.
arch_triplet() {
  case $1 in
    amd64) echo x86_64-linux-gnu ;;
    arm64) echo aarch64-linux-gnu ;;
    *) die "unsupported release architecture: $1 (amd64 or arm64)" ;;
  esac
}
openssl_target() {
  case $1 in
    amd64) echo linux-x86_64 ;;
    arm64) echo linux-aarch64 ;;
  esac
}

# The packages a build for ARCH needs on this (amd64) machine.
deps_packages() {
  local packages=(make perl autoconf automake libtool pkg-config)
  [ "$1" = arm64 ] && packages+=(gcc-aarch64-linux-gnu g++-aarch64-linux-gnu)
  printf '%s\n' "${packages[@]}"
}

RELEASE_CFLAGS="-O2 -ffunction-sections -fdata-sections"

# build_deps CACHE ARCH: the static libraries for ARCH under
# CACHE/deps-ARCH-<key>/stage/usr/local; prints that prefix. Reused while the
# pins and this file are unchanged.
build_deps() {
  local cache=$1 arch=$2
  local key
  key=$(
    sources_key
    sha256sum -- "${BASH_SOURCE[0]}" | cut -c1-16
  )
  key=$(printf '%s' "$key" | sha256sum | cut -c1-16)
  local root=$cache/deps-$arch-$key
  local prefix=$root/stage/usr/local
  if [ -f "$root/.built" ]; then
    printf '%s\n' "$prefix"
    return 0
  fi
  mapfile -t packages < <(deps_packages "$arch")
  ensure_apt_packages "${packages[@]}"
  fetch_sources "$cache"
  # A library built before a failure is kept (its stamp says so).
  mkdir -p "$root/build" "$root/stage"
  local triplet host
  triplet=$(arch_triplet "$arch")
  host=$(gcc -dumpmachine)
  local -a env_cc=(CC="$triplet-gcc" AR="$triplet-ar" RANLIB="$triplet-ranlib"
    CFLAGS="$RELEASE_CFLAGS" SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-0}"
    PKG_CONFIG_LIBDIR="$prefix/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$root/stage")
  [ "$triplet" = "$host" ] && env_cc[0]=CC=gcc
  local jobs
  jobs=$(nproc)

  step() {  # step NAME COMMAND...: runs COMMAND in the copy of NAME, logged
    local name=$1
    shift
    local log=$root/build/$name.log
    (cd "$root/build/$name" && env "${env_cc[@]}" "$@") >>"$log" 2>&1 ||
      { tail -n 40 "$log" >&2; die "building $name for $arch failed (log: $log)"; }
  }
  copy() {  # copy NAME: a fresh copy of NAME's source to build in
    local from
    from=$(source_dir "$cache" "$1")
    rm -rf -- "$root/build/$1" "$root/build/$1.log"
    cp -a -- "$from" "$root/build/$1"
  }
  built() {  # built NAME: whether NAME is staged already
    [ -f "$root/build/$1.built" ]
  }
  autotools() {  # autotools NAME CONFIGURE-ARGS...
    local name=$1
    shift
    built "$name" && return 0
    copy "$name"
    log "building $name for linux/$arch"
    # Some source packages ship configure.ac only (Debian runs autoreconf).
    [ -x "$root/build/$name/configure" ] || step "$name" autoreconf -fi
    step "$name" ./configure --host="$triplet" --build="$host" --prefix=/usr/local \
      --disable-shared --enable-static --disable-dependency-tracking "$@"
    step "$name" make -j"$jobs"
    step "$name" make install DESTDIR="$root/stage"
    touch "$root/build/$name.built"
  }

  autotools libyaml
  openssl_lib() {
    built openssl && return 0
    copy openssl
    log "building openssl for linux/$arch (a few minutes)"
    local cross=()
    [ "$triplet" = "$host" ] || cross=(--cross-compile-prefix="$triplet-")
    # Configure takes the compiler's name from CC and the prefix separately.
    step openssl env CC=gcc AR=ar RANLIB=ranlib ./Configure "$(openssl_target "$arch")" \
      "${cross[@]}" --prefix=/usr/local --libdir=lib --openssldir=/etc/ssl no-shared no-module \
      no-engine no-dso no-tests no-legacy no-ui-console no-comp no-ssl3 no-srp $RELEASE_CFLAGS
    step openssl make -j"$jobs" build_libs
    step openssl make install_dev DESTDIR="$root/stage"
    touch "$root/build/openssl.built"
  }
  openssl_lib
  autotools c-ares --disable-tests
  autotools nghttp2 --enable-lib-only --disable-python-bindings --without-libxml2 \
    --without-jansson --without-zlib --without-libevent-openssl --without-libcares \
    --without-systemd --without-jemalloc
  autotools curl --with-openssl="$prefix" --enable-ares="$prefix" --with-nghttp2="$prefix" \
    --without-ca-bundle --without-ca-path --without-ca-fallback \
    --disable-ftp --disable-file --disable-ldap --disable-ldaps --disable-rtsp --disable-dict \
    --disable-telnet --disable-tftp --disable-pop3 --disable-imap --disable-smb --disable-smtp \
    --disable-gopher --disable-mqtt --disable-manual --disable-ntlm --disable-ntlm-wb --disable-netrc \
    --disable-kerberos-auth --disable-negotiate-auth --disable-docs \
    --without-libssh2 --without-libssh --without-wolfssh --without-gssapi --without-libidn2 \
    --without-librtmp --without-zlib --without-brotli --without-zstd --without-libpsl \
    --without-ngtcp2 --without-nghttp3 --without-quiche --without-msh3 --without-hyper
  # libcurl.pc names the staged libraries by the prefix it was configured
  # with; the executable's build finds them through PKG_CONFIG_SYSROOT_DIR.
  touch "$root/.built"
  printf '%s\n' "$prefix"
}
