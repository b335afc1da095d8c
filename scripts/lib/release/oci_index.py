"""Joins per-architecture images of an OCI layout into one image index.

Usage: oci_index.py LAYOUT TAG CREATED ARCH...

umoci tags each architecture's image by its name (LAYOUT:amd64, ...). This
writes an image index blob (application/vnd.oci.image.index.v1+json) whose
manifests are those images with their platforms, and leaves index.json with
that index, tagged TAG, so that `skopeo copy --all oci:LAYOUT:TAG ...`
pushes every platform, and each platform's image tagged TAG-ARCH, which
`umoci unpack --image LAYOUT:TAG-ARCH` unpacks (umoci unpacks one image,
not an index). The JSON is written with sorted keys and no spaces:
the same images give the same digest.
"""

import hashlib
import json
import os
import sys

INDEX = "application/vnd.oci.image.index.v1+json"
REF = "org.opencontainers.image.ref.name"


def blob_path(layout, digest):
    algorithm, hexdigest = digest.split(":", 1)
    return os.path.join(layout, "blobs", algorithm, hexdigest)


def write_blob(layout, data):
    digest = "sha256:" + hashlib.sha256(data).hexdigest()
    with open(blob_path(layout, digest), "wb") as f:
        f.write(data)
    return digest


def canonical(value):
    return json.dumps(value, sort_keys=True, separators=(",", ":")).encode()


def main(layout, tag, created, archs):
    with open(os.path.join(layout, "index.json")) as f:
        top = json.load(f)
    by_tag = {d.get("annotations", {}).get(REF): d for d in top["manifests"]}
    manifests = []
    for arch in archs:
        descriptor = by_tag.get(arch)
        if descriptor is None:
            sys.exit(f"oci_index.py: {layout} has no image tagged {arch}")
        with open(blob_path(layout, descriptor["digest"]), "rb") as f:
            manifest = json.load(f)
        with open(blob_path(layout, manifest["config"]["digest"]), "rb") as f:
            config = json.load(f)
        if config.get("architecture") != arch or config.get("os") != "linux":
            sys.exit(f"oci_index.py: the image tagged {arch} is for "
                     f"{config.get('os')}/{config.get('architecture')}")
        manifests.append({
            "mediaType": descriptor["mediaType"],
            "digest": descriptor["digest"],
            "size": descriptor["size"],
            "platform": {"architecture": arch, "os": "linux"},
        })
    index = {
        "schemaVersion": 2,
        "mediaType": INDEX,
        "manifests": manifests,
        "annotations": {"org.opencontainers.image.created": created},
    }
    data = canonical(index)
    digest = write_blob(layout, data)
    top["manifests"] = [{
        "mediaType": INDEX,
        "digest": digest,
        "size": len(data),
        "annotations": {REF: tag},
    }] + [{
        "mediaType": m["mediaType"],
        "digest": m["digest"],
        "size": m["size"],
        "platform": m["platform"],
        "annotations": {REF: f"{tag}-{m['platform']['architecture']}"},
    } for m in manifests]
    with open(os.path.join(layout, "index.json"), "wb") as f:
        f.write(canonical(top))


if __name__ == "__main__":
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:])
