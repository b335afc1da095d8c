#!/usr/bin/env python3
"""Generate a synthetic, helm-like Kubernetes manifest stream for archfit's benchmarks.

The output is deterministic: the same arguments give the same bytes, on any Python 3.8+
(the generator uses its own SplitMix64 random numbers, not the `random` module, and never
iterates over a set).

Two inputs
----------
Default mode (`--workloads N`, default 20,000): a stream that looks like `helm template`
output of many charts, one after another: workload documents average ~1 KB, and with the
non-workload documents the default stream is ~25 MB (~20 MB at `--workloads 16000`).

  * Every document starts with `---` and `# Source: <chart>/templates/<file>.yaml`, and the
    documents of one release are in helm's install order (ServiceAccount, ConfigMap, Service,
    DaemonSet, Pod, Deployment, HPA, StatefulSet, Job, CronJob).
  * N counts workloads only: Deployments (~58%), StatefulSets, DaemonSets, Jobs, CronJobs
    (pod template at `spec.jobTemplate.spec.template`) and Pods (helm test hooks). Each has
    exactly one pod template. Non-workload documents (ServiceAccounts, ConfigMaps with `|`
    block scalars, Services, a few PodDisruptionBudgets and HorizontalPodAutoscalers) come on
    top, about 0.43 per workload; the counts are printed separately.
  * Pods have 1-4 containers and sometimes initContainers, with labels, annotations, env
    lists, resources, probes, ports and volume mounts; some flow collections
    (`{cpu: 100m, memory: 128Mi}`, `args: ["--a", "--b"]`, `emptyDir: {}`), block scalars
    (`|`, `|-`, `>-`) in args and ConfigMaps, single- and double-quoted strings, quoted keys
    (`"helm.sh/hook": test`) and comments. A chart writes block sequences either at its key's
    column (`- name:` under `containers:`) or indented by two, as real charts differ, and is
    either rich (helm's standard labels, sidecars, most optional fields) or lean
    (guestbook-like: few labels, one container, few optional fields).
  * Some ConfigMaps embed YAML text with `image:` lines inside a block scalar, and
    StatefulSets carry `volumeClaimTemplates` with their own `spec`: neither is a pod template.
  * Some pod templates already carry placement: `nodeSelector` (block or flow), tolerations,
    `tolerations: []` / `affinity: {}`, podAntiAffinity, and required node affinity with one or
    two nodeSelectorTerms (some with `kubernetes.io/os In [linux]`, some with
    `kubernetes.io/arch In [amd64, arm64]`, which must be narrowed), so that placement has to
    AND its expression into every existing term.

`--deployments-only N`: N plain Deployments (no `# Source:` lines, no other kinds, no existing
tolerations), the input for comparing against `kubectl kustomize` applying a JSON 6902 patch to
every Deployment. `--kustomize-dir DIR` writes the stream as DIR/input.yaml together with
DIR/kustomization.yaml (resources: [input.yaml]; one patch with `target: {kind: Deployment}`
that adds `spec.template.spec.tolerations`). It works in the default mode too.

Images and the lock file
------------------------
Images come from a pool of `--images M` (default 300) distinct canonical references, in the
shapes real manifests use: Docker Hub short names (`nginx:1.25`, `bitnami/redis:7.2.4`),
explicit `docker.io/library/redis:7`, ghcr.io, quay.io, registry.k8s.io, gcr.io, Artifact
Registry, ECR, a registry with a port, a few without a tag (`:latest`), a few `tag@sha256:<64
hex>` and digest-only references. Some Docker Hub images are written two ways in the stream
(`redis:7` and `docker.io/library/redis:7`), so there are more distinct image strings than
canonical references.

The canonical reference is `registry/full/repository[:tag][@digest]`: `docker.io` and
`library/` made explicit, `:latest` only when there is neither tag nor digest; a
`tag@sha256:...` reference keeps both. `--lock FILE` writes archfit's lock file for every
canonical reference used (JSON, keys sorted, 2-space indent):
`{"version": 1, "images": {"<canonical>": {"platforms": [...]}}}`.

Platform scheme -- every workload needs a change on a `linux/amd64,linux/arm64` cluster:
every image belongs to one class.

  * amd64 class (45% of the pool): linux/amd64 and nothing else in the cluster, e.g.
    ["linux/amd64"] or ["linux/amd64", "linux/ppc64le", "linux/s390x"].
  * arm64 class (25%): linux/arm64 and nothing else in the cluster, e.g. ["linux/arm64"],
    ["linux/arm64/v8"] or ["linux/arm/v7", "linux/arm64"].
  * multi class (30%): both linux/amd64 and linux/arm64 (sidecars, init containers).

Each pod template picks a class, amd64 (70%) or arm64 (30%); its first container's image is
from that class, and every other container and init container is from that class or from the
multi class. So the platforms every template can run on, restricted to the cluster, are
exactly one architecture, never none: each template needs required node affinity (and, for
arm64, a toleration), and no existing constraint already says the same thing.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import sys

GENERATOR_VERSION = 1
DEFAULT_SEED = 20240611
MASK64 = (1 << 64) - 1


# --------------------------------------------------------------------------------------------
# Deterministic random numbers (SplitMix64).


class Rng:
    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        return self.next64() % n

    def randint(self, lo: int, hi: int) -> int:
        return lo + self.below(hi - lo + 1)

    def chance(self, p: float) -> bool:
        return self.next64() < int(p * (1 << 64))

    def choice(self, seq):
        return seq[self.below(len(seq))]

    def weighted(self, pairs):
        """pairs: [(value, integer weight), ...]"""
        total = sum(w for _, w in pairs)
        r = self.below(total)
        for value, w in pairs:
            if r < w:
                return value
            r -= w
        raise AssertionError("unreachable")

    def sample(self, seq, k: int):
        pool = list(seq)
        out = []
        for _ in range(min(k, len(pool))):
            out.append(pool.pop(self.below(len(pool))))
        return out


# --------------------------------------------------------------------------------------------
# A small block-style YAML emitter with explicit style markers.


class DQ(str):
    """A double-quoted scalar (or key)."""


class SQ(str):
    """A single-quoted scalar."""


class Flow:
    """A collection written in flow style on one line."""

    def __init__(self, value) -> None:
        self.value = value


class Block:
    """A block scalar: header is '|', '|-' or '>-'; text is its content without indentation."""

    def __init__(self, header: str, text: str) -> None:
        self.header = header
        self.lines = text.split("\n")


class Comment:
    """A comment line, given as a mapping key: {Comment("text"): None} (the value is ignored)."""

    def __init__(self, text: str) -> None:
        self.text = text


_YAML11_SPECIAL = re.compile(
    r"^(?:~|null|Null|NULL|y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE"
    r"|on|On|ON|off|Off|OFF|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)|<<|=)$"
)
_NUMBERISH = re.compile(r"^[-+]?[0-9.][0-9a-fA-FxXoO._:+-]*$")


def _needs_quotes(s: str, flow: bool) -> bool:
    if s == "" or s != s.strip() or "\n" in s or "\t" in s:
        return True
    if _YAML11_SPECIAL.match(s) or _NUMBERISH.match(s):
        return True
    if s[0] in "?:,[]{}#&*!|>'\"%@`" or s.startswith("- ") or s == "-":
        return True
    if ": " in s or " #" in s or s.endswith(":"):
        return True
    if flow and any(c in s for c in ",[]{}"):
        return True
    return False


_PLAIN_CACHE = {}


def scalar(v, flow: bool = False) -> str:
    if type(v) is str:  # the common case, memoized
        key = (v, flow)
        out = _PLAIN_CACHE.get(key)
        if out is None:
            out = json.dumps(v) if _needs_quotes(v, flow) else v
            _PLAIN_CACHE[key] = out
        return out
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if v is None:
        return "null"
    if isinstance(v, DQ):
        return json.dumps(str(v))
    if isinstance(v, SQ):
        return "'" + str(v).replace("'", "''") + "'"
    if isinstance(v, str):
        return json.dumps(v) if _needs_quotes(v, flow) else v
    raise TypeError(f"not a scalar: {v!r}")


def flow(v) -> str:
    if isinstance(v, Flow):
        v = v.value
    if isinstance(v, dict):
        return "{" + ", ".join(f"{scalar(k, True)}: {flow(x)}" for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[" + ", ".join(flow(x) for x in v) + "]"
    return scalar(v, True)


def _inline(v) -> bool:
    return isinstance(v, (Flow, str, int, bool)) or v is None or v == {} or v == []


def emit(out: list, obj, indent: int, si: int) -> None:
    """Append the block lines of a mapping or sequence. si: extra indent of block sequences."""
    pad = " " * indent
    if isinstance(obj, dict):
        for k, v in obj.items():
            if isinstance(k, Comment):
                out.append(f"{pad}# {k.text}")
                continue
            key = scalar(k)
            if _inline(v):
                out.append(f"{pad}{key}: {flow(v)}")
            elif isinstance(v, Block):
                out.append(f"{pad}{key}: {v.header}")
                _emit_block_lines(out, v, indent + 2)
            elif isinstance(v, dict):
                out.append(f"{pad}{key}:")
                emit(out, v, indent + 2, si)
            elif isinstance(v, list):
                out.append(f"{pad}{key}:")
                emit(out, v, indent + si, si)
            else:
                raise TypeError(f"cannot emit {v!r}")
    elif isinstance(obj, list):
        for item in obj:
            if _inline(item):
                out.append(f"{pad}- {flow(item)}")
            elif isinstance(item, Block):
                out.append(f"{pad}- {item.header}")
                _emit_block_lines(out, item, indent + 2)
            elif isinstance(item, dict):
                start = len(out)
                emit(out, item, indent + 2, si)
                out[start] = f"{pad}- {out[start][indent + 2:]}"
            else:
                raise TypeError(f"cannot emit list item {item!r}")
    else:
        raise TypeError(f"cannot emit {obj!r}")


def _emit_block_lines(out: list, b: Block, indent: int) -> None:
    pad = " " * indent
    for line in b.lines:
        out.append(pad + line if line else "")


# --------------------------------------------------------------------------------------------
# Image references and the image pool.


def canonical(ref: str) -> str:
    """registry/full/repository[:tag][@digest], docker.io and library/ explicit, :latest when
    there is neither tag nor digest."""
    name, digest = ref, ""
    if "@" in ref:
        name, digest = ref.split("@", 1)
    tag = ""
    slash = name.rfind("/")
    colon = name.rfind(":")
    if colon > slash:
        name, tag = name[:colon], name[colon + 1 :]
    first, _, rest = name.partition("/")
    if rest and ("." in first or ":" in first or first == "localhost"):
        registry, repo = first, rest
    else:
        registry, repo = "docker.io", name
    if registry == "index.docker.io":
        registry = "docker.io"
    if registry == "docker.io" and "/" not in repo:
        repo = "library/" + repo
    out = f"{registry}/{repo}"
    if tag:
        out += ":" + tag
    if digest:
        out += "@" + digest
    if not tag and not digest:
        out += ":latest"
    return out


OFFICIAL = (
    "nginx redis postgres mysql mariadb mongo memcached busybox alpine debian ubuntu python node "
    "golang httpd haproxy traefik rabbitmq consul vault registry telegraf influxdb eclipse-temurin "
    "openjdk caddy nats cassandra zookeeper solr tomcat php ruby kong percona"
).split()
HUB_ORGS = (
    "bitnami grafana prom curlimages jaegertracing openzipkin kiwigrid minio fluent "
    "hashicorp envoyproxy istio otel confluentinc elastic"
).split()
ORGS = (
    "acme example-org platform-team fluxcd argoproj cert-manager external-secrets kyverno "
    "cilium projectcontour dexidp oauth2-proxy strimzi zalando crossplane"
).split()
APPS = (
    "api worker web frontend backend gateway scheduler controller operator agent exporter "
    "proxy ingest indexer notifier auth billing search cache queue metrics collector "
    "webhook syncer migrator reporter renderer uploader"
).split()
K8S_PROJECTS = (
    "ingress-nginx/controller kube-state-metrics/kube-state-metrics metrics-server/metrics-server "
    "sig-storage/csi-provisioner sig-storage/csi-attacher sig-storage/livenessprobe "
    "autoscaling/cluster-autoscaler dns/k8s-dns-node-cache descheduler/descheduler "
    "external-dns/external-dns pause kube-proxy coredns/coredns"
).split()
REGIONS = "us-east-1 eu-west-1 ap-southeast-2 us-west-2".split()
GAR_REGIONS = "us europe asia us-central1".split()


def _version(rng: Rng, style: int) -> str:
    major, minor, patch = rng.randint(0, 12), rng.randint(0, 30), rng.randint(0, 20)
    if style == 0:
        return f"{major}.{minor}"
    if style == 1:
        return f"{major}.{minor}.{patch}"
    if style == 2:
        return f"v{major}.{minor}.{patch}"
    if style == 3:
        return f"{major}.{minor}.{patch}-debian-12-r{rng.randint(0, 40)}"
    return f"{major}.{minor}-alpine"


def _image_ref(rng: Rng) -> str:
    shape = rng.weighted(
        [
            ("official", 22),
            ("library", 6),
            ("hub", 18),
            ("ghcr", 14),
            ("quay", 7),
            ("k8s", 9),
            ("gcr", 5),
            ("gar", 5),
            ("ecr", 6),
            ("port", 3),
            ("untagged", 2),
        ]
    )
    if shape == "official":
        return f"{rng.choice(OFFICIAL)}:{_version(rng, rng.choice([0, 1, 4]))}"
    if shape == "library":
        return f"docker.io/library/{rng.choice(OFFICIAL)}:{_version(rng, rng.choice([0, 1]))}"
    if shape == "hub":
        prefix = "docker.io/" if rng.chance(0.3) else ""
        return f"{prefix}{rng.choice(HUB_ORGS)}/{rng.choice(APPS)}:{_version(rng, rng.choice([1, 2, 3]))}"
    if shape == "ghcr":
        return f"ghcr.io/{rng.choice(ORGS)}/{rng.choice(APPS)}:{_version(rng, 2)}"
    if shape == "quay":
        return f"quay.io/{rng.choice(ORGS)}/{rng.choice(APPS)}:{_version(rng, rng.choice([1, 2]))}"
    if shape == "k8s":
        return f"registry.k8s.io/{rng.choice(K8S_PROJECTS)}:{_version(rng, 2)}"
    if shape == "gcr":
        return f"gcr.io/{rng.choice(ORGS)}-prod/{rng.choice(APPS)}:{_version(rng, 1)}"
    if shape == "gar":
        return (
            f"{rng.choice(GAR_REGIONS)}-docker.pkg.dev/{rng.choice(ORGS)}-{rng.randint(100, 999)}"
            f"/containers/{rng.choice(APPS)}:{_version(rng, 2)}"
        )
    if shape == "ecr":
        return (
            f"{rng.randint(10**11, 10**12 - 1)}.dkr.ecr.{rng.choice(REGIONS)}.amazonaws.com"
            f"/{rng.choice(ORGS)}/{rng.choice(APPS)}:{_version(rng, 1)}"
        )
    if shape == "port":
        return f"registry.internal.example.com:5000/{rng.choice(ORGS)}/{rng.choice(APPS)}:{_version(rng, 1)}"
    return rng.choice(OFFICIAL) if rng.chance(0.6) else f"{rng.choice(HUB_ORGS)}/{rng.choice(APPS)}"


AMD64_PLATFORMS = [
    (["linux/amd64"], 8),
    (["linux/amd64", "linux/ppc64le", "linux/s390x"], 1),
    (["linux/amd64", "windows/amd64"], 1),
]
ARM64_PLATFORMS = [
    (["linux/arm64"], 6),
    (["linux/arm64/v8"], 2),
    (["linux/arm/v7", "linux/arm64"], 2),
]
MULTI_PLATFORMS = [
    (["linux/amd64", "linux/arm64"], 5),
    (["linux/amd64", "linux/arm/v7", "linux/arm64/v8", "linux/ppc64le", "linux/s390x"], 3),
    (["linux/386", "linux/amd64", "linux/arm/v6", "linux/arm/v7", "linux/arm64/v8"], 2),
]


class Image:
    def __init__(self, spellings: list, canonical_ref: str, arch_class: str, platforms: list) -> None:
        self.spellings = spellings
        self.canonical = canonical_ref
        self.arch_class = arch_class
        self.platforms = platforms


def build_pool(rng: Rng, size: int, seed: int) -> dict:
    """{'amd64': [Image], 'arm64': [Image], 'multi': [Image]}, size canonical images in all."""
    seen = {}
    images = []
    i = 0
    while len(images) < size:
        ref = _image_ref(rng)
        i += 1
        digest_kind = rng.weighted([("none", 95), ("tag+digest", 4), ("digest", 1)])
        if digest_kind != "none":
            hexd = hashlib.sha256(f"archfit-bench:{seed}:{i}".encode()).hexdigest()
            if digest_kind == "digest" and ref.rfind(":") > ref.rfind("/"):
                ref = ref[: ref.rfind(":")]  # digest only, no tag
            ref = f"{ref}@sha256:{hexd}"
        canon = canonical(ref)
        if canon in seen:
            continue
        seen[canon] = True
        spellings = [ref]
        # Some Docker Hub images appear under two spellings in the stream.
        if canon.startswith("docker.io/") and rng.chance(0.2):
            alt = canon if ref != canon else _short_hub(canon)
            if alt != ref:
                spellings.append(alt)
        n = len(images)
        cls = "amd64" if n % 20 < 9 else ("arm64" if n % 20 < 14 else "multi")
        table = {"amd64": AMD64_PLATFORMS, "arm64": ARM64_PLATFORMS, "multi": MULTI_PLATFORMS}[cls]
        images.append(Image(spellings, canon, cls, rng.weighted(table)))
    pool = {"amd64": [], "arm64": [], "multi": []}
    for image in images:
        pool[image.arch_class].append(image)
    return pool


def _short_hub(canon: str) -> str:
    rest = canon[len("docker.io/") :]
    if rest.startswith("library/"):
        rest = rest[len("library/") :]
    if rest.endswith(":latest"):
        rest = rest[: -len(":latest")]
    return rest


# --------------------------------------------------------------------------------------------
# Documents.

WORDS = (
    "payments checkout ledger catalog orders inventory shipping billing accounts profile "
    "search reviews media gallery notify mailer reports analytics events audit gateway portal "
    "admin console docs blog forum chat voice video stream ingest etl warehouse lake feature "
    "flags config secrets vault identity login session cart pricing promo loyalty fraud risk "
    "scoring quote policy claims kyc onboarding tracker maps geo weather"
).split()
COMPONENTS = "api worker web server scheduler consumer cron migrate sync exporter proxy ui".split()

INSTALL_ORDER = [
    "PodDisruptionBudget",
    "ServiceAccount",
    "ConfigMap",
    "Service",
    "DaemonSet",
    "Pod",
    "Deployment",
    "HorizontalPodAutoscaler",
    "StatefulSet",
    "Job",
    "CronJob",
]
WORKLOAD_KINDS = [
    ("Deployment", 58),
    ("StatefulSet", 12),
    ("DaemonSet", 7),
    ("Job", 8),
    ("CronJob", 9),
    ("Pod", 6),
]


class Release:
    def __init__(self, rng: Rng, index: int) -> None:
        word = rng.choice(WORDS)
        self.chart = word
        self.name = word if index < len(WORDS) and rng.chance(0.3) else f"{word}-{index}"
        self.namespace = rng.choice([self.name, word, "default", "apps", "platform"])
        self.version = f"{rng.randint(0, 9)}.{rng.randint(0, 30)}.{rng.randint(0, 12)}"
        self.app_version = _version(rng, rng.choice([1, 2]))
        self.si = rng.weighted([(0, 3), (2, 2)])  # block sequences at the key's column or indented by 2
        # Rich charts (many optional fields, sidecars) and lean ones (guestbook-like).
        self.rich = rng.chance(0.4)
        # Label conventions: helm's five standard labels, a short app.kubernetes.io/* pair, or
        # the older app/release pair.
        self.label_style = rng.weighted([("helm", 45 if self.rich else 0), ("short", 40), ("app", 40)])
        self.quote_images = rng.chance(0.4)


class Stats:
    def __init__(self) -> None:
        self.documents = 0
        self.workloads = {k: 0 for k, _ in WORKLOAD_KINDS}
        self.others = {}
        self.pod_templates = 0
        self.containers = 0
        self.init_containers = 0
        self.image_strings = {}
        self.canonical = {}
        self.templates_by_class = {"amd64": 0, "arm64": 0}
        self.placement = {
            "nodeSelector": 0,
            "tolerations": 0,
            "affinity": 0,
            "nodeSelectorTerms": 0,
            "multipleTerms": 0,
            "archExpression": 0,
            "emptyFlow": 0,
        }


class Generator:
    def __init__(self, seed: int, pool_size: int, plain: bool = False) -> None:
        self.rng = Rng(seed)
        self.seed = seed
        self.pool = build_pool(Rng(seed ^ 0x5EED), pool_size, seed)
        self.plain = plain  # --deployments-only: no existing tolerations
        self.stats = Stats()
        self.out = []

    # ---- helpers --------------------------------------------------------------------------

    def labels(self, rel: Release, component: str) -> dict:
        """The object's metadata.labels."""
        if rel.label_style == "helm":
            return {
                "helm.sh/chart": f"{rel.chart}-{rel.version}",
                **self.selector(rel, component),
                "app.kubernetes.io/version": DQ(rel.app_version),
                "app.kubernetes.io/managed-by": "Helm",
            }
        return self.selector(rel, component)

    def selector(self, rel: Release, component: str) -> dict:
        """Selector labels, which are also the pod template's labels."""
        name = f"{rel.chart}-{component}" if component else rel.chart
        if rel.label_style == "app":
            return {"app": name, "release": rel.name}
        return {"app.kubernetes.io/name": name, "app.kubernetes.io/instance": rel.name}

    def metadata(self, rel: Release, name: str, component: str, extra: dict = None) -> dict:
        md = {"name": name}
        if self.rng.chance(0.7):
            md["namespace"] = rel.namespace
        md["labels"] = self.labels(rel, component)
        if extra:
            md.update(extra)
        return md

    def begin(self, source: str) -> None:
        self.out.append("---")
        if source:
            self.out.append(f"# Source: {source}")
        self.stats.documents += 1

    def draw_image(self, cls: str, allow_multi: bool) -> str:
        rng = self.rng
        pool = self.pool["multi"] if allow_multi and rng.chance(0.5) else self.pool[cls]
        image = rng.choice(pool)
        ref = rng.choice(image.spellings)
        self.stats.image_strings[ref] = True
        self.stats.canonical[image.canonical] = image
        return ref

    # ---- containers and pod templates -----------------------------------------------------

    def maybe(self, rel: Release, p: float) -> bool:
        """An optional field: lean charts have a third as many."""
        return self.rng.chance(p if rel.rich else p * 0.35)

    def container(self, rel: Release, name: str, cls: str, main: bool, init: bool) -> dict:
        """A container; `main` is the pod's first container, the others are sidecars."""
        rng = self.rng
        maybe = lambda p: self.maybe(rel, p)  # noqa: E731
        ref = self.draw_image(cls, allow_multi=not main)
        c = {"name": name, "image": DQ(ref) if rel.quote_images else ref}
        if rng.chance(0.4):
            c["imagePullPolicy"] = rng.choice(["IfNotPresent", "IfNotPresent", "Always"])
        if init:
            c["command"] = Flow(["sh", "-c"])
            if rng.chance(0.4):
                script = f"until nc -z {rel.name}-db 5432; do\n  echo waiting for {rel.name}-db\n  sleep 2\ndone"
                c["args"] = [Block("|", script)]
            else:
                c["args"] = [SQ(f"until nslookup {rel.name}.{rel.namespace}.svc; do sleep 2; done")]
            return c
        if not main:
            if rng.chance(0.4):
                c["args"] = Flow([DQ(f"--upstream=127.0.0.1:{8080 + rng.below(10)}"), "--v=1"])
            if rng.chance(0.5):
                c["resources"] = {"requests": Flow({"cpu": "10m", "memory": f"{rng.choice([16, 32, 64])}Mi"})}
            return c
        style = rng.weighted([("flow", 20), ("block", 12), ("script", 7), ("folded", 5)]) if maybe(0.5) else "none"
        if style == "flow":
            c["args"] = Flow([DQ(f"--port={8080 + rng.below(10)}"), DQ(f"--log-level={rng.choice(['info', 'debug'])}")])
        elif style == "block":
            c["args"] = [f"--config=/etc/{rel.chart}/config.yaml", f"--metrics-addr=:{9090 + rng.below(10)}"]
        elif style == "script":
            c["command"] = ["/bin/sh", "-c"]
            script = f"set -e\nexec /usr/local/bin/{name} \\\n  --config /etc/{rel.chart}/config.yaml \\\n  --listen :8080"
            c["args"] = [Block("|", script)]
        elif style == "folded":
            c["args"] = [Block(">-", f"--upstream=http://{rel.name}-api.{rel.namespace}.svc:8080\n--timeout=30s")]
        if maybe(0.4):
            c["ports"] = [{"name": "http", "containerPort": 8080, "protocol": "TCP"}]
            if rng.chance(0.5):
                del c["ports"][0]["protocol"]
            if rng.chance(0.2):
                c["ports"].append({"name": "metrics", "containerPort": 9090})
        if maybe(0.3):
            env = []
            for var in rng.sample(["LOG_LEVEL", "PORT", "WORKERS", "REGION", "POD_NAME", "DB_PASSWORD"], rng.randint(1, 2)):
                if var == "POD_NAME":
                    env.append({"name": var, "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}})
                elif var == "DB_PASSWORD":
                    env.append({"name": var, "valueFrom": {"secretKeyRef": {"name": f"{rel.name}-db", "key": "password"}}})
                elif var in ("PORT", "WORKERS"):
                    env.append({"name": var, "value": DQ(str(rng.choice([1, 4, 8080])))})
                else:
                    env.append({"name": var, "value": rng.choice(["info", "production", "eu-west-1"])})
            c["env"] = env
        if maybe(0.05):
            c["envFrom"] = [{"configMapRef": {"name": f"{rel.name}-env"}}]
        r = rng.weighted([("flow", 8), ("block", 3)]) if maybe(0.55) else "none"
        if r == "flow":
            c["resources"] = {
                "requests": Flow({"cpu": f"{rng.choice([50, 100, 250])}m", "memory": f"{rng.choice([64, 128, 256])}Mi"})
            }
            if rng.chance(0.5):
                c["resources"]["limits"] = Flow({"memory": f"{rng.choice([256, 512])}Mi"})
        elif r == "block":
            c["resources"] = {
                "limits": {"cpu": 1 if rng.chance(0.3) else "500m", "memory": "512Mi"},
                "requests": {"cpu": "100m", "memory": "128Mi"},
            }
        if maybe(0.25):
            port = "http" if "ports" in c else 8080
            c["livenessProbe"] = {"httpGet": {"path": "/healthz", "port": port}, "initialDelaySeconds": 10}
            if rng.chance(0.5):
                c["readinessProbe"] = {"httpGet": {"path": "/readyz", "port": port}}
        if maybe(0.15):
            c["securityContext"] = {"allowPrivilegeEscalation": False, "capabilities": {"drop": Flow(["ALL"])}}
        if maybe(0.25):
            c["volumeMounts"] = [{"name": "config", "mountPath": SQ(f"/etc/{rel.chart}"), "readOnly": True}]
        return c

    def placement(self, rel: Release, kind: str, spec: dict, component: str) -> None:
        rng = self.rng
        p = self.stats.placement
        ns = rng.weighted([("none", 70), ("os", 18), ("pool", 5), ("flow", 5), ("empty", 2)])
        if ns == "os":
            spec["nodeSelector"] = {"kubernetes.io/os": "linux"}
        elif ns == "pool":
            spec["nodeSelector"] = {"node-pool": rng.choice(["general", "batch", "memory"])}
        elif ns == "flow":
            spec["nodeSelector"] = Flow({"kubernetes.io/os": "linux"})
        elif ns == "empty":
            spec["nodeSelector"] = {}
            p["emptyFlow"] += 1
        if ns in ("os", "pool", "flow"):
            p["nodeSelector"] += 1
        if not self.plain:
            if kind == "DaemonSet" and rng.chance(0.5):
                spec["tolerations"] = [{"operator": "Exists"}]
                p["tolerations"] += 1
            else:
                t = rng.weighted([("none", 82), ("block", 8), ("flow", 4), ("empty", 6)])
                if t == "block":
                    spec["tolerations"] = [
                        {"key": "dedicated", "operator": "Equal", "value": rng.choice(["infra", "batch"]), "effect": "NoSchedule"}
                    ]
                elif t == "flow":
                    spec["tolerations"] = [Flow({"key": "spot", "operator": "Exists", "effect": "NoSchedule"})]
                elif t == "empty":
                    spec["tolerations"] = []
                    p["emptyFlow"] += 1
                if t in ("block", "flow"):
                    p["tolerations"] += 1
        a = rng.weighted(
            [("none", 72), ("anti", 6), ("empty", 6), ("term", 6), ("terms", 3), ("os", 2), ("arch", 3), ("preferred", 2)]
        )
        if a == "none":
            return
        if a == "empty":
            spec["affinity"] = {}
            p["emptyFlow"] += 1
            return
        p["affinity"] += 1
        aff = {}
        if a in ("term", "terms", "os", "arch"):
            p["nodeSelectorTerms"] += 1
            if a == "term":
                terms = [{"matchExpressions": [{"key": "node-role.kubernetes.io/worker", "operator": "Exists"}]}]
            elif a == "terms":
                p["multipleTerms"] += 1
                terms = [
                    {
                        "matchExpressions": [
                            {"key": "topology.kubernetes.io/zone", "operator": "In", "values": ["eu-west-1a", "eu-west-1b"]}
                        ]
                    },
                    {"matchExpressions": [{"key": "node-pool", "operator": "In", "values": Flow(["general"])}]},
                ]
            elif a == "os":
                terms = [{"matchExpressions": [{"key": "kubernetes.io/os", "operator": "In", "values": ["linux"]}]}]
            else:
                p["archExpression"] += 1
                terms = [
                    {
                        "matchExpressions": [
                            {"key": "kubernetes.io/arch", "operator": "In", "values": ["amd64", "arm64"]},
                            {"key": "kubernetes.io/os", "operator": "In", "values": ["linux"]},
                        ]
                    }
                ]
            aff["nodeAffinity"] = {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": terms}}
        if a == "preferred":
            aff["nodeAffinity"] = {
                "preferredDuringSchedulingIgnoredDuringExecution": [
                    {
                        "weight": 50,
                        "preference": {
                            "matchExpressions": [{"key": "node-pool", "operator": "In", "values": ["general"]}]
                        },
                    }
                ]
            }
        if a == "anti" or rng.chance(0.2):
            aff["podAntiAffinity"] = {
                "preferredDuringSchedulingIgnoredDuringExecution": [
                    {
                        "weight": 100,
                        "podAffinityTerm": {
                            "labelSelector": {"matchLabels": self.selector(rel, component)},
                            "topologyKey": "kubernetes.io/hostname",
                        },
                    }
                ]
            }
        spec["affinity"] = aff

    def pod_template(self, rel: Release, kind: str, component: str, with_metadata: bool = True) -> dict:
        """The template mapping (metadata + spec); for a Pod, the caller uses the spec only."""
        rng = self.rng
        st = self.stats
        cls = "amd64" if rng.chance(0.7) else "arm64"
        st.templates_by_class[cls] += 1
        st.pod_templates += 1
        spec = {}
        if self.maybe(rel, 0.6):
            spec["serviceAccountName"] = rel.name
        if self.maybe(rel, 0.2):
            spec["securityContext"] = Flow({"runAsNonRoot": True, "fsGroup": 1000}) if rng.chance(0.4) else {
                "runAsNonRoot": True,
                "runAsUser": 1000,
            }
        n_init = rng.weighted([(0, 72), (1, 22), (2, 6)] if rel.rich else [(0, 90), (1, 10)])
        if n_init:
            spec["initContainers"] = [
                self.container(rel, f"init-{i}" if i else "wait-for-deps", cls, False, True) for i in range(n_init)
            ]
            st.init_containers += n_init
        n = rng.weighted([(1, 50), (2, 33), (3, 11), (4, 6)] if rel.rich else [(1, 80), (2, 17), (3, 3)])
        sidecars = [x for x in ("sidecar", "envoy", "metrics", "log-shipper", "config-reloader") if x != component]
        names = [component] + rng.sample(sidecars, n - 1)
        spec["containers"] = [self.container(rel, names[i], cls, i == 0, False) for i in range(n)]
        st.containers += n
        self.placement(rel, kind, spec, component)
        if kind in ("Job", "CronJob"):
            spec["restartPolicy"] = rng.choice(["OnFailure", "Never"])
        elif kind == "Pod":
            spec["restartPolicy"] = "Never"
        if any("volumeMounts" in c for c in spec["containers"]):
            spec["volumes"] = [{"name": "config", "configMap": {"name": f"{rel.name}-config"}}]
            if rng.chance(0.3):
                spec["volumes"].append({"name": "tmp", "emptyDir": {}})
        if not with_metadata:
            return spec
        md = {"labels": self.selector(rel, component)}
        if self.maybe(rel, 0.3):
            md["annotations"] = {
                "checksum/config": hashlib.sha256(f"{rel.name}/{component}/{st.pod_templates}".encode()).hexdigest()
            }
            if rng.chance(0.3):
                md["annotations"]["prometheus.io/scrape"] = DQ("true")
        return {"metadata": md, "spec": spec}

    # ---- documents ------------------------------------------------------------------------

    def workload(self, rel: Release, kind: str, component: str, file: str) -> None:
        rng = self.rng
        self.stats.workloads[kind] += 1
        name = f"{rel.name}-{component}"
        doc = {}
        if kind == "Deployment":
            doc["apiVersion"] = "apps/v1"
            doc["kind"] = kind
            doc["metadata"] = self.metadata(rel, name, component)
            spec = {}
            if rng.chance(0.7):
                spec["replicas"] = rng.choice([1, 2, 3])
            if rng.chance(0.2):
                spec["revisionHistoryLimit"] = 10
            spec["selector"] = {"matchLabels": self.selector(rel, component)}
            if rng.chance(0.08):
                spec["strategy"] = {"type": "RollingUpdate", "rollingUpdate": Flow({"maxSurge": "25%", "maxUnavailable": 0})}
            spec["template"] = self.pod_template(rel, kind, component)
            doc["spec"] = spec
        elif kind == "StatefulSet":
            doc["apiVersion"] = "apps/v1"
            doc["kind"] = kind
            doc["metadata"] = self.metadata(rel, name, component)
            doc["spec"] = {
                "serviceName": f"{name}-headless",
                "replicas": rng.choice([1, 3]),
                "selector": {"matchLabels": self.selector(rel, component)},
                "template": self.pod_template(rel, kind, component),
                "volumeClaimTemplates": [
                    {
                        "metadata": {"name": "data"},
                        "spec": {
                            "accessModes": Flow([SQ("ReadWriteOnce")]),
                            "resources": {"requests": {"storage": DQ(f"{rng.choice([1, 8, 20])}Gi")}},
                        },
                    }
                ],
            }
        elif kind == "DaemonSet":
            doc["apiVersion"] = "apps/v1"
            doc["kind"] = kind
            doc["metadata"] = self.metadata(rel, name, component)
            doc["spec"] = {
                "selector": {"matchLabels": self.selector(rel, component)},
                "updateStrategy": {"type": "RollingUpdate"},
                "template": self.pod_template(rel, kind, component),
            }
        elif kind == "Job":
            doc["apiVersion"] = "batch/v1"
            doc["kind"] = kind
            hook = {"annotations": {DQ("helm.sh/hook"): "pre-install,pre-upgrade", DQ("helm.sh/hook-weight"): DQ("-5")}}
            doc["metadata"] = self.metadata(rel, name, component, hook if rng.chance(0.5) else None)
            doc["spec"] = {"backoffLimit": 3, "template": self.pod_template(rel, kind, component)}
            if rng.chance(0.5):
                doc["spec"]["ttlSecondsAfterFinished"] = 600
        elif kind == "CronJob":
            doc["apiVersion"] = "batch/v1"
            doc["kind"] = kind
            doc["metadata"] = self.metadata(rel, name, component)
            doc["spec"] = {
                "schedule": DQ(rng.choice(["*/15 * * * *", "0 3 * * *", "30 */6 * * *"])),
                "concurrencyPolicy": "Forbid",
                "successfulJobsHistoryLimit": 3,
                "jobTemplate": {
                    "spec": {"backoffLimit": 2, "template": self.pod_template(rel, kind, component)}
                },
            }
        elif kind == "Pod":
            doc["apiVersion"] = "v1"
            doc["kind"] = kind
            md = {"name": f"{name}-test"}
            if rng.chance(0.8):
                md["namespace"] = rel.namespace
            md["labels"] = self.labels(rel, component)
            md["annotations"] = Flow({DQ("helm.sh/hook"): "test"}) if rng.chance(0.5) else {DQ("helm.sh/hook"): "test"}
            doc["metadata"] = md
            doc["spec"] = self.pod_template(rel, kind, component, with_metadata=False)
        else:
            raise AssertionError(kind)
        self.begin(f"{rel.chart}/templates/{file}" if not self.plain else "")
        emit(self.out, doc, 0, rel.si)

    def other(self, rel: Release, kind: str, component: str, file: str) -> None:
        rng = self.rng
        self.stats.others[kind] = self.stats.others.get(kind, 0) + 1
        name = f"{rel.name}-{component}" if component else rel.name
        if kind == "ServiceAccount":
            doc = {"apiVersion": "v1", "kind": kind, "metadata": self.metadata(rel, rel.name, "")}
            if rng.chance(0.3):
                doc["automountServiceAccountToken"] = False
        elif kind == "ConfigMap":
            doc = {
                "apiVersion": "v1",
                "kind": kind,
                "metadata": self.metadata(rel, f"{rel.name}-config", ""),
                "data": self.configmap_data(rel),
            }
        elif kind == "Service":
            ports = [{"name": "http", "port": 80, "targetPort": "http", "protocol": "TCP"}]
            if rng.chance(0.3):
                ports.append({"name": "metrics", "port": 9090, "targetPort": 9090})
            doc = {
                "apiVersion": "v1",
                "kind": kind,
                "metadata": self.metadata(rel, name, component),
                "spec": {
                    "type": rng.choice(["ClusterIP", "ClusterIP", "ClusterIP", "NodePort"]),
                    "ports": ports,
                    "selector": self.selector(rel, component),
                },
            }
        elif kind == "PodDisruptionBudget":
            doc = {
                "apiVersion": "policy/v1",
                "kind": kind,
                "metadata": self.metadata(rel, name, component),
                "spec": {"minAvailable": 1, "selector": {"matchLabels": self.selector(rel, component)}},
            }
        elif kind == "HorizontalPodAutoscaler":
            doc = {
                "apiVersion": "autoscaling/v2",
                "kind": kind,
                "metadata": self.metadata(rel, name, component),
                "spec": {
                    "scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": name},
                    "minReplicas": 2,
                    "maxReplicas": 10,
                    "metrics": [
                        {
                            "type": "Resource",
                            "resource": {"name": "cpu", "target": Flow({"type": "Utilization", "averageUtilization": 80})},
                        }
                    ],
                },
            }
        else:
            raise AssertionError(kind)
        self.begin(f"{rel.chart}/templates/{file}")
        emit(self.out, doc, 0, rel.si)

    def configmap_data(self, rel: Release) -> dict:
        rng = self.rng
        data = {}
        if rng.chance(0.2):
            data[Comment(f"Rendered from values.yaml of {rel.chart} {rel.version}")] = None
        data["LOG_LEVEL"] = rng.choice(["info", "debug", "warn"])
        shape = rng.weighted([("app", 4), ("nginx", 2), ("json", 2), ("images", 1)])
        if shape == "app":
            data["config.yaml"] = Block(
                "|",
                f"server:\n  port: 8080\n  shutdownTimeout: 30s\n"
                f"database:\n  host: {rel.name}-db.{rel.namespace}.svc\n  port: 5432\n  pool: 10\n"
                f"features:\n  - search\n  - export\n# trailing comment in the file",
            )
        elif shape == "nginx":
            data["nginx.conf"] = Block(
                "|-",
                "worker_processes auto;\nevents { worker_connections 1024; }\nhttp {\n"
                "  server {\n    listen 8080;\n    location / {\n"
                f"      proxy_pass http://{rel.name}-api:8080;\n"
                "    }\n  }\n}",
            )
        elif shape == "json":
            data["settings.json"] = Block(
                "|",
                "{\n"
                f'  "name": "{rel.name}",\n  "replicas": 3,\n'
                '  "endpoints": ["/api", "/healthz"],\n  "retry": {"max": 5, "backoff": "2s"}\n}',
            )
        else:
            # YAML inside a block scalar that mentions images: not a pod template.
            data["values.yaml"] = Block(
                "|",
                "sidecar:\n  image: docker.io/library/not-a-container:1.0\n"
                "  containers:\n  - name: fake\n    image: example.com/fake/image:v0\n",
            )
        return data

    # ---- streams --------------------------------------------------------------------------

    def helm_stream(self, workloads: int) -> None:
        rng = self.rng
        left = workloads
        index = 0
        while left > 0:
            rel = Release(rng, index)
            index += 1
            n = min(left, rng.weighted([(1, 20), (2, 25), (3, 20), (4, 15), (5, 10), (6, 10)]))
            left -= n
            kinds = [rng.weighted(WORKLOAD_KINDS) for _ in range(n)]
            comps = rng.sample(COMPONENTS, n)
            docs = []  # (kind, emit)
            if rng.chance(0.35):
                docs.append(("ServiceAccount", ("other", "ServiceAccount", "", "serviceaccount.yaml")))
            if rng.chance(0.3):
                docs.append(("ConfigMap", ("other", "ConfigMap", "", "configmap.yaml")))
            for kind, comp in zip(kinds, comps):
                file = f"{comp}-{kind.lower()}.yaml" if n > 1 else f"{kind.lower()}.yaml"
                docs.append((kind, ("workload", kind, comp, file)))
                if kind in ("Deployment", "StatefulSet") and rng.chance(0.25):
                    docs.append(("Service", ("other", "Service", comp, f"{comp}-service.yaml")))
                if kind == "Deployment" and rng.chance(0.03):
                    docs.append(("PodDisruptionBudget", ("other", "PodDisruptionBudget", comp, f"{comp}-pdb.yaml")))
                if kind == "Deployment" and rng.chance(0.03):
                    docs.append(("HorizontalPodAutoscaler", ("other", "HorizontalPodAutoscaler", comp, f"{comp}-hpa.yaml")))
            docs.sort(key=lambda d: INSTALL_ORDER.index(d[0]))  # stable: keeps component order
            for _, (what, kind, comp, file) in docs:
                if what == "workload":
                    self.workload(rel, kind, comp, file)
                else:
                    self.other(rel, kind, comp, file)

    def deployments_stream(self, count: int) -> None:
        rng = self.rng
        index = 0
        left = count
        while left > 0:
            rel = Release(rng, index)
            index += 1
            n = min(left, rng.randint(1, 4))
            left -= n
            for comp in rng.sample(COMPONENTS, n):
                self.workload(rel, "Deployment", comp, "")

    def text(self) -> bytes:
        return ("\n".join(self.out) + "\n").encode("ascii") if self.out else b""

    def lock(self) -> bytes:
        images = {}
        for canon in sorted(self.stats.canonical):
            images[canon] = {"platforms": sorted(self.stats.canonical[canon].platforms)}
        return (json.dumps({"version": 1, "images": images}, indent=2, sort_keys=True) + "\n").encode("ascii")


KUSTOMIZATION = """\
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources:
- input.yaml
patches:
- target:
    kind: Deployment
  patch: |-
    - op: add
      path: /spec/template/spec/tolerations
      value:
      - key: kubernetes.io/arch
        operator: Equal
        value: arm64
        effect: NoSchedule
"""


def write_file(path: str, data: bytes) -> None:
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(
        prog="gen_stream.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--workloads", type=int, default=20000, metavar="N", help="workloads in the helm-like stream (default 20000)")
    ap.add_argument("--deployments-only", type=int, metavar="N", help="instead: N plain Deployments (kustomize comparison input)")
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"random seed (default {DEFAULT_SEED})")
    ap.add_argument("--images", type=int, default=300, metavar="M", help="distinct canonical images in the pool (default 300)")
    ap.add_argument("--out", metavar="FILE", help="write the stream here (default: stdout)")
    ap.add_argument("--lock", metavar="FILE", help="also write the matching archfit lock file")
    ap.add_argument("--kustomize-dir", metavar="DIR", help="write DIR/input.yaml and DIR/kustomization.yaml")
    ap.add_argument("--stats", metavar="FILE", help="also write counts as JSON")
    ap.add_argument("--version", action="version", version=f"gen_stream {GENERATOR_VERSION}")
    args = ap.parse_args(argv)

    if args.workloads < 0 or (args.deployments_only is not None and args.deployments_only < 0):
        ap.error("counts must not be negative")
    if args.images < 20:
        ap.error("--images must be at least 20")
    if args.kustomize_dir and args.out:
        ap.error("--kustomize-dir writes DIR/input.yaml; do not also give --out")

    gen = Generator(args.seed, args.images, plain=args.deployments_only is not None)
    if args.deployments_only is not None:
        gen.deployments_stream(args.deployments_only)
    else:
        gen.helm_stream(args.workloads)
    data = gen.text()

    target = args.out
    if args.kustomize_dir:
        os.makedirs(args.kustomize_dir, exist_ok=True)
        target = os.path.join(args.kustomize_dir, "input.yaml")
        write_file(os.path.join(args.kustomize_dir, "kustomization.yaml"), KUSTOMIZATION.encode("ascii"))
    if target:
        write_file(target, data)
    else:
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    if args.lock:
        write_file(args.lock, gen.lock())

    st = gen.stats
    workloads = sum(st.workloads.values())
    others = sum(st.others.values())
    stats = {
        "generator_version": GENERATOR_VERSION,
        "seed": args.seed,
        "mode": "deployments-only" if args.deployments_only is not None else "helm",
        "bytes": len(data),
        "documents": st.documents,
        "workloads": workloads,
        "workload_kinds": st.workloads,
        "other_documents": others,
        "other_kinds": dict(sorted(st.others.items())),
        "pod_templates": st.pod_templates,
        "templates_by_class": st.templates_by_class,
        "containers": st.containers,
        "init_containers": st.init_containers,
        "image_strings": len(st.image_strings),
        "canonical_images": len(st.canonical),
        "existing_placement": st.placement,
        "sha256": hashlib.sha256(data).hexdigest(),
    }
    if args.stats:
        write_file(args.stats, (json.dumps(stats, indent=2, sort_keys=True) + "\n").encode("ascii"))
    print(
        f"gen_stream: {len(data)} bytes, {st.documents} documents ({workloads} workloads, {others} other), "
        f"{st.containers + st.init_containers} containers, {len(st.image_strings)} distinct image strings "
        f"({len(st.canonical)} canonical) -> {target or 'stdout'}",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
