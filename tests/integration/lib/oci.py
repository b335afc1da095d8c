"""Test images as data: manifests, indexes and config blobs built in memory,
written out as OCI image layouts for skopeo, or served as-is by the fake
registry.

Every image is tiny: one config blob naming its platform and one layer (an
empty tar, gzipped deterministically), so pushing hundreds of them is cheap
and all of them share the layer blob.

    store = Store()
    amd = store.image("linux/amd64")
    arm = store.image("linux/arm/v7", fmt="docker")
    top = store.index([amd, arm], fmt="docker")      # a Docker manifest list
    store.write_layout(dir, {"v1": top})

Platforms are written `os/arch[/variant][:os.version]`, e.g.
`windows/amd64:10.0.17763.5830`. The variant lands in the config blob and in
the index entry exactly as given (`linux/arm64/v8` stays `v8`): normalizing is
the client's job, and these images are there to test it.
"""

import gzip
import hashlib
import io
import json
import os
import tarfile

OCI_INDEX = "application/vnd.oci.image.index.v1+json"
OCI_MANIFEST = "application/vnd.oci.image.manifest.v1+json"
OCI_CONFIG = "application/vnd.oci.image.config.v1+json"
OCI_LAYER = "application/vnd.oci.image.layer.v1.tar+gzip"
DOCKER_LIST = "application/vnd.docker.distribution.manifest.list.v2+json"
DOCKER_MANIFEST = "application/vnd.docker.distribution.manifest.v2+json"
DOCKER_CONFIG = "application/vnd.docker.container.image.v1+json"
DOCKER_LAYER = "application/vnd.docker.image.rootfs.diff.tar.gzip"
DOCKER_SCHEMA1 = "application/vnd.docker.distribution.manifest.v1+prettyjws"
IN_TOTO = "application/vnd.in-toto+json"

INDEX_TYPES = (OCI_INDEX, DOCKER_LIST)
MANIFEST_TYPES = (OCI_MANIFEST, DOCKER_MANIFEST)

# BuildKit marks its provenance/SBOM manifests this way in an index.
ATTESTATION_ANNOTATION = "vnd.docker.reference.type"
ATTESTATION_VALUE = "attestation-manifest"
ATTESTATION_DIGEST_ANNOTATION = "vnd.docker.reference.digest"


def sha256(data):
    return "sha256:" + hashlib.sha256(data).hexdigest()


def canonical_json(obj):
    """Bytes of a JSON document; the digest of a manifest is over these bytes."""
    return json.dumps(obj, separators=(",", ":"), sort_keys=True).encode()


def parse_platform(text):
    """`os/arch[/variant][:os.version]` -> dict in OCI descriptor form."""
    spec, _, os_version = text.partition(":")
    parts = spec.split("/")
    if len(parts) not in (2, 3) or not all(parts):
        raise ValueError(f"platform {text!r} is not os/arch[/variant][:os.version]")
    platform = {"os": parts[0], "architecture": parts[1]}
    if len(parts) == 3:
        platform["variant"] = parts[2]
    if os_version:
        platform["os.version"] = os_version
    return platform


def _empty_layer():
    """A gzipped empty tar and the sha256 of the tar itself (its diff_id)."""
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.USTAR_FORMAT):
        pass
    tar = raw.getvalue()
    out = io.BytesIO()
    # mtime=0 keeps the blob, and so every digest built on it, reproducible.
    with gzip.GzipFile(fileobj=out, mode="wb", mtime=0) as gz:
        gz.write(tar)
    return out.getvalue(), sha256(tar)


class Store:
    """Content-addressed blobs (manifests included) and builders for them."""

    def __init__(self):
        self.blobs = {}  # digest -> bytes
        self.media_types = {}  # digest -> media type, for manifests
        self._layer, self._diff_id = _empty_layer()

    # -- raw blobs -----------------------------------------------------

    def put(self, data, media_type):
        digest = sha256(data)
        self.blobs[digest] = data
        return {"mediaType": media_type, "digest": digest, "size": len(data)}

    def put_manifest(self, obj, media_type=None):
        """Stores a manifest; media_type defaults to obj's own `mediaType`."""
        desc = self.put(canonical_json(obj), media_type or obj.get("mediaType", OCI_MANIFEST))
        self.media_types[desc["digest"]] = desc["mediaType"]
        return desc

    def get(self, digest):
        return self.blobs[digest]

    # -- images --------------------------------------------------------

    def config(self, platform, fmt="oci", label=None):
        """The config blob of one image; `label` makes otherwise equal images distinct."""
        p = parse_platform(platform)
        cfg = {"architecture": p["architecture"], "os": p["os"],
               "rootfs": {"type": "layers", "diff_ids": [self._diff_id]}}
        if "variant" in p:
            cfg["variant"] = p["variant"]
        if "os.version" in p:
            cfg["os.version"] = p["os.version"]
        if label is not None:
            cfg["config"] = {"Labels": {"archfit.test/label": str(label)}}
        return self.put(canonical_json(cfg), OCI_CONFIG if fmt == "oci" else DOCKER_CONFIG)

    def image(self, platform, fmt="oci", label=None, in_index=True):
        """A single-platform image manifest. Returns its descriptor, with a
        `platform` field for use as an index entry (in_index=False leaves it out,
        so the client must read the config)."""
        if fmt not in ("oci", "docker"):
            raise ValueError(f"format {fmt!r} is not oci or docker")
        oci = fmt == "oci"
        cfg = self.config(platform, fmt, label)
        layer = self.put(self._layer, OCI_LAYER if oci else DOCKER_LAYER)
        manifest = {"schemaVersion": 2, "mediaType": OCI_MANIFEST if oci else DOCKER_MANIFEST,
                    "config": cfg, "layers": [layer]}
        desc = self.put_manifest(manifest)
        if in_index:
            desc["platform"] = parse_platform(platform)
        return desc

    def attestation(self, subject, label=None):
        """A BuildKit-style attestation manifest for the image `subject`, as an
        index entry: platform unknown/unknown plus the reference annotations."""
        cfg = self.put(canonical_json({"architecture": "unknown", "os": "unknown",
                                       "rootfs": {"type": "layers", "diff_ids": []},
                                       "label": label}), OCI_CONFIG)
        statement = self.put(canonical_json({"_type": "https://in-toto.io/Statement/v0.1",
                                             "subject": [{"digest": subject["digest"]}]}),
                             IN_TOTO)
        manifest = {"schemaVersion": 2, "mediaType": OCI_MANIFEST, "config": cfg,
                    "layers": [statement]}
        desc = self.put_manifest(manifest)
        desc["platform"] = {"architecture": "unknown", "os": "unknown"}
        desc["annotations"] = {ATTESTATION_ANNOTATION: ATTESTATION_VALUE,
                               ATTESTATION_DIGEST_ANNOTATION: subject["digest"]}
        return desc

    def index(self, entries, fmt="oci", annotations=None):
        """An index (fmt oci) or a Docker manifest list (fmt docker) over
        `entries`, which may themselves be indexes (a nested index)."""
        media_type = OCI_INDEX if fmt == "oci" else DOCKER_LIST
        manifest = {"schemaVersion": 2, "mediaType": media_type, "manifests": list(entries)}
        if annotations:
            manifest["annotations"] = annotations
        return self.put_manifest(manifest)

    def schema1(self, platform="linux/amd64"):
        """A Docker schema 1 signed manifest (unsigned here; nobody should read it)."""
        p = parse_platform(platform)
        body = {"schemaVersion": 1, "name": "legacy/app", "tag": "v1",
                "architecture": p["architecture"],
                "fsLayers": [{"blobSum": sha256(self._layer)}],
                "history": [{"v1Compatibility": json.dumps({"os": p["os"]})}]}
        return self.put_manifest(body, DOCKER_SCHEMA1)

    # -- walking -------------------------------------------------------

    def closure(self, digest):
        """Every digest `digest` needs: itself, children, configs, layers."""
        seen, todo = [], [digest]
        while todo:
            d = todo.pop()
            if d in seen:
                continue
            seen.append(d)
            if d not in self.media_types:
                continue
            doc = json.loads(self.blobs[d])
            todo.extend(m["digest"] for m in doc.get("manifests", []))
            if "config" in doc:
                todo.append(doc["config"]["digest"])
            todo.extend(layer["digest"] for layer in doc.get("layers", []))
        return seen

    # -- OCI layout ----------------------------------------------------

    def write_layout(self, path, tags):
        """Writes an OCI image layout at `path` holding `tags` ({tag: descriptor});
        skopeo reads it as `oci:<path>:<tag>`. Only the blobs the tags need are
        written."""
        blob_dir = os.path.join(path, "blobs", "sha256")
        os.makedirs(blob_dir, exist_ok=True)
        with open(os.path.join(path, "oci-layout"), "w") as f:
            json.dump({"imageLayoutVersion": "1.0.0"}, f)
        manifests = []
        for tag, desc in tags.items():
            for digest in self.closure(desc["digest"]):
                target = os.path.join(blob_dir, digest.split(":", 1)[1])
                if not os.path.exists(target):
                    with open(target, "wb") as f:
                        f.write(self.blobs[digest])
            entry = {k: v for k, v in desc.items() if k in ("mediaType", "digest", "size")}
            entry["annotations"] = {"org.opencontainers.image.ref.name": tag}
            manifests.append(entry)
        index = {"schemaVersion": 2, "mediaType": OCI_INDEX, "manifests": manifests}
        with open(os.path.join(path, "index.json"), "wb") as f:
            f.write(canonical_json(index))
