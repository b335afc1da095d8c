"""Every kind of image the resolution tests expect archfit to read, with the
exact platform set it must report, and how each one gets into a real
registry with skopeo 1.9.3 (found by pushing and reading back with
`skopeo inspect --raw`):

- OCI indexes and OCI manifests are copied byte for byte (same digest),
  attestation entries, windows `os.version` and entries without `platform`
  included.
- Docker media types cannot be written into the layout's index.json: skopeo
  ignores such entries ("no descriptor found for reference"). `--format v2s2`
  converts instead: an OCI index becomes a Docker manifest list of Docker
  schema2 manifests (variants kept), so their digests are the registry's.
- An index inside an index fails ("Unexpectedly received a manifest list
  instead of a manifest for a single image"): its children are pushed first
  and the outer index is PUT over the registry API.
"""

import collections
import json
import os

from . import oci

Kind = collections.namedtuple("Kind", "name build push_format expected media_type")


def _oci_index(s):
    return s.index([s.image(p) for p in ("linux/amd64", "linux/arm64/v8", "linux/arm/v7",
                                         "linux/ppc64le", "linux/s390x")])


def _docker_list(s):  # pushed with --format v2s2
    return s.index([s.image(p) for p in ("linux/amd64", "linux/arm64/v8", "linux/386")])


def _attestations(s):
    amd, arm = s.image("linux/amd64", label="att"), s.image("linux/arm64", label="att")
    return s.index([amd, arm, s.attestation(amd), s.attestation(arm)])


def _arm_variants(s):
    return s.index([s.image(p) for p in ("linux/arm/v6", "linux/arm/v7", "linux/arm64/v8")])


def _windows(s):
    return s.index([s.image(p) for p in ("linux/amd64", "windows/amd64:10.0.17763.5830",
                                         "windows/amd64:10.0.20348.2461")])


def _nested(s):
    inner = s.index([s.image("linux/amd64", label="nested"), s.image("linux/arm64/v8")])
    return s.index([inner, s.image("linux/s390x")])


def _no_platform(s):
    return s.index([s.image(p, in_index=False) for p in ("linux/amd64", "linux/riscv64")])


KINDS = [
    Kind("oci-index", _oci_index, None,
         ["linux/amd64", "linux/arm/v7", "linux/arm64", "linux/ppc64le", "linux/s390x"],
         oci.OCI_INDEX),
    Kind("docker-list", _docker_list, "v2s2", ["linux/386", "linux/amd64", "linux/arm64"],
         oci.DOCKER_LIST),
    Kind("oci-single", lambda s: s.image("linux/arm64/v8", in_index=False), None,
         ["linux/arm64"], oci.OCI_MANIFEST),
    Kind("docker-single", lambda s: s.image("linux/amd64", label="d", in_index=False), "v2s2",
         ["linux/amd64"], oci.DOCKER_MANIFEST),
    Kind("docker-single-armv7", lambda s: s.image("linux/arm/v7", in_index=False), "v2s2",
         ["linux/arm/v7"], oci.DOCKER_MANIFEST),
    Kind("attestations", _attestations, None, ["linux/amd64", "linux/arm64"], oci.OCI_INDEX),
    Kind("arm-variants", _arm_variants, None, ["linux/arm/v6", "linux/arm/v7", "linux/arm64"],
         oci.OCI_INDEX),
    Kind("windows", _windows, None, ["linux/amd64", "windows/amd64"], oci.OCI_INDEX),
    Kind("windows-single",
         lambda s: s.image("windows/amd64:10.0.20348.2461", in_index=False), None,
         ["windows/amd64"], oci.OCI_MANIFEST),
    Kind("nested-index", _nested, None, ["linux/amd64", "linux/arm64", "linux/s390x"],
         oci.OCI_INDEX),
    Kind("no-platform", _no_platform, None, ["linux/amd64", "linux/riscv64"], oci.OCI_INDEX),
]

Pushed = collections.namedtuple("Pushed", "kind repo tag digest")


def populate(registry, layout_dir, tag="v1"):
    """Pushes every kind to `registry` as `<kind>/app:<tag>`; returns {name: Pushed}."""
    store = oci.Store()
    built = {k.name: k.build(store) for k in KINDS}
    layout_tags = dict(built)
    # The children of a nested index go in first, under tags of their own.
    nested = built["nested-index"]
    children = json.loads(store.get(nested["digest"]))["manifests"]
    for i, child in enumerate(children):
        layout_tags[f"nested-index-child{i}"] = child
    store.write_layout(layout_dir, layout_tags)

    pushed = {}
    for kind in KINDS:
        repo = f"{kind.name}/app"
        if kind.name == "nested-index":
            for i in range(len(children)):
                registry.push(layout_dir, f"nested-index-child{i}", f"{repo}:{tag}-child{i}")
            digest = registry.put_manifest(repo, tag, store.get(nested["digest"]), oci.OCI_INDEX)
        else:
            digest = registry.push(layout_dir, kind.name, f"{repo}:{tag}", kind.push_format)
        if kind.push_format is None and digest != built[kind.name]["digest"]:
            raise RuntimeError(f"{kind.name}: skopeo changed the manifest ({digest} pushed, "
                               f"{built[kind.name]['digest']} built)")
        pushed[kind.name] = Pushed(kind, repo, tag, digest)
    return pushed


def write_kinds(layout_dir, names):
    """Writes only the named kinds into an OCI layout at `layout_dir`, each
    under its name as the tag; for tests that push a few (registry.push)."""
    store = oci.Store()
    kinds = {k.name: k for k in KINDS}
    store.write_layout(layout_dir, {name: kinds[name].build(store) for name in names})
    return layout_dir


def layout_dir(base):
    path = os.path.join(base, "layout")
    os.makedirs(path, exist_ok=True)
    return path
