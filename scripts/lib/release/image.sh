# The release's OCI image: an index of linux/amd64 and linux/arm64 images,
# each one layer with the static executable, Debian's CA bundle and a
# non-root user, whose entrypoint is `archfit krm` (a KRM function; the Argo
# CD sidecar runs the same image). Built without a daemon with umoci into an
# OCI layout on disk, which `skopeo copy --all oci:DIR:VERSION docker://...`
# pushes. Source it after scripts/lib/release/package.sh.

IMAGE_UID=65532  # "nonroot", as distroless images number it

# image_rootfs EXE DIR: the files of the image's one layer.
image_rootfs() {
  local exe=$1 dir=$2
  rm -rf -- "$dir"
  mkdir -p -- "$dir/usr/local/bin" "$dir/etc/ssl/certs" "$dir/home/nonroot" "$dir/tmp"
  install -m 0755 -- "$exe" "$dir/usr/local/bin/archfit"
  install -m 0644 -- /etc/ssl/certs/ca-certificates.crt "$dir/etc/ssl/certs/ca-certificates.crt"
  printf 'root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:%s:%s:nonroot:/home/nonroot:/sbin/nologin\n' \
    "$IMAGE_UID" "$IMAGE_UID" >"$dir/etc/passwd"
  printf 'root:x:0:\nnonroot:x:%s:\n' "$IMAGE_UID" >"$dir/etc/group"
  chmod 1777 -- "$dir/tmp"
  # The layer records owners as they are on disk: root, and the user's home.
  chown -R 0:0 -- "$dir"
  chown "$IMAGE_UID:$IMAGE_UID" -- "$dir/home/nonroot"
  find "$dir" -exec touch -h -d "@$SOURCE_DATE_EPOCH" -- {} +
}

# make_image SRC CACHE VERSION LAYOUT ARCH...: the OCI layout LAYOUT, whose
# tag VERSION is the index of the ARCHs' images.
make_image() {
  local src=$1 cache=$2 version=$3 layout=$4
  shift 4
  ensure_apt_packages umoci skopeo ca-certificates
  [ "$(id -u)" -eq 0 ] ||
    die "building the image needs root (the layer records its files' owners); run as root, or with --no-image"
  local created revision arch
  created=$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%dT%H:%M:%SZ)
  revision=$(git -C "$src" rev-parse HEAD)
  rm -rf -- "$layout"
  umoci init --layout "$layout"
  for arch in "$@"; do
    log "building the linux/$arch image"
    image_rootfs "$cache/exe-$arch/archfit" "$cache/rootfs-$arch"
    # The layer is written by GNU tar (sorted, times and owners fixed) and
    # added as it is; umoci compresses it.
    (cd "$cache/rootfs-$arch" && LC_ALL=C tar --sort=name --format=gnu \
      --mtime="@$SOURCE_DATE_EPOCH" --numeric-owner -cf "$cache/layer-$arch.tar" .)
    umoci new --image "$layout:$arch"
    umoci raw add-layer --image "$layout:$arch" --history.created "$created" \
      --history.created_by "scripts/release" --history.comment "archfit $version" \
      "$cache/layer-$arch.tar"
    umoci config --no-history --image "$layout:$arch" --os linux --architecture "$arch" \
      --created "$created" --author "$(project_maintainer)" \
      --config.user "$IMAGE_UID:$IMAGE_UID" --config.workingdir / \
      --config.entrypoint /usr/local/bin/archfit --config.entrypoint krm \
      --config.env PATH=/usr/local/bin --config.env HOME=/home/nonroot \
      --config.env SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt \
      --config.env ARCHFIT_CACHE_DIR=/tmp/archfit-cache \
      --config.label "org.opencontainers.image.title=archfit" \
      --config.label "org.opencontainers.image.description=Places Kubernetes pods on nodes their images can run on (KRM function: archfit krm)" \
      --config.label "org.opencontainers.image.source=$(project_url)" \
      --config.label "org.opencontainers.image.url=$(project_url)" \
      --config.label "org.opencontainers.image.version=$version" \
      --config.label "org.opencontainers.image.revision=$revision" \
      --config.label "org.opencontainers.image.created=$created" \
      --config.label "org.opencontainers.image.licenses=Apache-2.0"
  done
  python3 "$src/scripts/lib/release/oci_index.py" "$layout" "$version" "$created" "$@"
  umoci gc --layout "$layout"
  # Readable by everyone, as the rest of the release (umoci writes 0600).
  chmod -R u+rwX,go+rX,go-w -- "$layout"
  log "image index: oci:$layout:$version ($(skopeo inspect --raw "oci:$layout:$version" |
    sha256sum | cut -c1-64 | sed 's/^/sha256:/'))"
}
