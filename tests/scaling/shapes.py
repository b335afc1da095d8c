"""Inputs of every shape archfit reads, at any size n (tests/scaling/table.py).

Each shape is a function of n that returns a Shape: the manifest documents (or
files), and the configuration and lock file they run with. The documents are
small and alike except in the one dimension that grows with n, so that a row
of the table measures that dimension and nothing else.
"""

import json

# Images the lock file holds: one that runs on amd64 only (fix adds node
# affinity) and one that runs everywhere (fix adds a toleration).
AMD64_ONLY = "mcr.microsoft.com/mssql/server:2022-latest"
EVERYWHERE = "nginx:1.27"
LOCK_IMAGES = {
    "mcr.microsoft.com/mssql/server:2022-latest": ["linux/amd64"],
    "docker.io/library/nginx:1.27": ["linux/amd64", "linux/arm64"],
}


def lock_text(images=None):
    images = LOCK_IMAGES if images is None else images
    return json.dumps({"version": 1, "images": {k: {"platforms": v} for k, v in
                                                 sorted(images.items())}},
                      indent=2, sort_keys=True) + "\n"


class Shape:
    """What one size of a row reads.

    documents: the manifest stream's documents (joined with '---').
    files: {relative path: text} instead of one stream (several files).
    config: .archfit.yaml beside the input ("" for none); lock: archfit.lock.
    """

    def __init__(self, documents=None, files=None, config="", lock=None):
        self.documents = documents
        self.files = files
        self.config = config
        self.lock = lock_text() if lock is None else lock

    def stream(self):
        return "---\n".join(self.documents)


def deployment(name, image=AMD64_ONLY, template_metadata="", spec_extra="", containers=None):
    containers = containers or f"      - {{name: c, image: \"{image}\"}}\n"
    return (f"apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {name}\nspec:\n"
            f"  selector: {{matchLabels: {{app: {name}}}}}\n  template:\n"
            f"    metadata:\n      labels: {{app: {name}}}\n{template_metadata}"
            f"    spec:\n{spec_extra}      containers:\n{containers}")


def block_mapping(indent, key, entries):
    pad = " " * indent
    return f"{pad}{key}:\n" + "".join(f"{pad}  {k}: {v}\n" for k, v in entries)


# Shapes, by dimension.

def documents(n):
    return Shape([deployment(f"web-{i}", AMD64_ONLY if i % 2 else EVERYWHERE) for i in range(n)])


def list_items(n):
    items = "".join(
        "- " + deployment(f"web-{i}", AMD64_ONLY if i % 2 else EVERYWHERE).replace("\n", "\n  ")
        .rstrip(" ") for i in range(n))
    return Shape(["apiVersion: v1\nkind: List\nitems:\n" + items])


def list_items_flow(n):
    # The whole list on one line, as a JSON-minded generator writes it.
    item = ('{apiVersion: apps/v1, kind: Deployment, metadata: {name: web-%d}, spec: {template: '
            '{spec: {containers: [{name: c, image: "%s"}]}}}}')
    return Shape(["{apiVersion: v1, kind: List, items: [" +
                  ", ".join(item % (i, AMD64_ONLY if i % 2 else EVERYWHERE) for i in range(n)) + "]}\n"])


def list_items_anchored(n):
    # Anchors of the items' own (a selector's labels written once): still
    # read item by item.
    shape = list_items(n)
    doc = shape.documents[0].replace("kind: List\n", "kind: List\nmetadata: &meta {}\n", 1)
    doc = doc.replace("    template:\n      metadata:\n        labels: {app:",
                      "    template:\n      metadata:\n        labels: &labels {app:")
    shape.documents[0] = doc
    return shape


def files(n):
    return Shape(files={f"team{i % 50}/app{i % 400}/deploy{i}.yaml": deployment(f"web-{i}")
                        for i in range(n)})


def settings(n):
    out = {}
    for i in range(n):
        out[f"team{i % 50}/app{i}/deploy.yaml"] = deployment(f"web-{i}")
        out[f"team{i % 50}/app{i}/.archfit.yaml"] = "clusterPlatforms: [linux/amd64, linux/arm64]\n"
        out[f"team{i % 50}/app{i}/archfit.lock"] = lock_text()
    return Shape(files=out)


def template_annotations(n):
    meta = block_mapping(6, "annotations", ((f"example.com/k{i}", "v") for i in range(n)))
    return Shape([deployment("web", template_metadata=meta)])


def template_labels(n):
    doc = deployment("web").replace("      labels: {app: web}\n", block_mapping(
        6, "labels", [("app", "web")] + [(f"l{i}", "v") for i in range(n)]))
    return Shape([doc])


def pod_annotations(n):
    return Shape(["apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n" +
                  block_mapping(2, "annotations", ((f"example.com/k{i}", "v") for i in range(n))) +
                  f"spec:\n  containers:\n  - {{name: c, image: \"{AMD64_ONLY}\"}}\n"])


def node_selector(n):
    sel = block_mapping(6, "nodeSelector", ((f"example.com/k{i}", "v") for i in range(n)))
    return Shape([deployment("web", spec_extra=sel)])


def node_selector_terms(n):
    terms = "".join(f"            - matchExpressions: [{{key: k{i}, operator: In, values: [v{i}]}}]\n"
                    for i in range(n))
    aff = ("      affinity:\n        nodeAffinity:\n          requiredDuringSchedulingIgnoredDuringExecution:\n"
           "            nodeSelectorTerms:\n" + terms)
    return Shape([deployment("web", spec_extra=aff)])


def match_expressions(n):
    exprs = "".join(f"              - {{key: k{i}, operator: In, values: [v{i}]}}\n" for i in range(n))
    aff = ("      affinity:\n        nodeAffinity:\n          requiredDuringSchedulingIgnoredDuringExecution:\n"
           "            nodeSelectorTerms:\n            - matchExpressions:\n" + exprs)
    return Shape([deployment("web", spec_extra=aff)])


def tolerations(n):
    tol = "      tolerations:\n" + "".join(
        f"      - {{key: example.com/t{i}, operator: Exists, effect: NoSchedule}}\n" for i in range(n))
    return Shape([deployment("web", EVERYWHERE, spec_extra=tol)])


def pinned(n):
    spec = "      nodeSelector: {kubernetes.io/arch: amd64}\n"
    return Shape([deployment(f"web-{i}", EVERYWHERE, spec_extra=spec) for i in range(n)])


def containers(n):
    cs = "".join(f"      - {{name: c{i}, image: \"{EVERYWHERE if i % 2 else AMD64_ONLY}\"}}\n"
                 for i in range(n))
    return Shape([deployment("web", containers=cs)])


def images(n):
    imgs = {f"registry.example.com/team/app{i}:1.0": ["linux/amd64", "linux/arm64"] if i % 2
            else ["linux/amd64"] for i in range(n)}
    docs = [deployment(f"web-{i}", f"registry.example.com/team/app{i}:1.0") for i in range(n)]
    return Shape(docs, lock=lock_text({**LOCK_IMAGES, **imgs}))


def lock_entries(n):
    imgs = dict(LOCK_IMAGES)
    imgs.update({f"registry.example.com/team/app{i}:1.0": ["linux/amd64", "linux/arm64"]
                 for i in range(n)})
    return Shape([deployment("web")], lock=lock_text(imgs))


def findings(n):
    # Each container's image is a placeholder: a finding each.
    cs = "".join(f"      - {{name: c{i}, image: \"${{IMAGE_{i}}}\"}}\n" for i in range(n))
    return Shape([deployment("web", containers=cs)])


def name_length(n):
    name = "w" * n
    return Shape([deployment(name, containers=f"      - {{name: {'c' * n}, image: \"{AMD64_ONLY}\"}}\n")])


def line_length(n):
    # The whole Deployment on one line, its template's annotation n bytes long.
    value = "x" * n
    return Shape(['{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"}, '
                  '"spec": {"template": {"metadata": {"annotations": {"example.com/a": "' + value +
                  '"}}, "spec": {"containers": [{"name": "c", "image": "' + AMD64_ONLY + '"}]}}}}\n'])


def node_pool(i, arch="arm64"):
    return (f"apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {{name: pool{i}}}\nspec:\n"
            f"  template:\n    metadata:\n      labels: {{team: t{i}}}\n    spec:\n"
            f"      requirements:\n      - {{key: kubernetes.io/arch, operator: In, values: [{arch}]}}\n"
            f"      taints:\n      - {{key: kubernetes.io/arch, value: {arch}, effect: NoSchedule}}\n")


def pools(n):
    return Shape([node_pool(i) for i in range(n)] + [deployment(f"web-{i}") for i in range(20)])


def pools_and_workloads(n):
    return Shape([node_pool(i) for i in range(n)] + [deployment(f"web-{i}") for i in range(n)])


def pools_and_distinct_workloads(n):
    # Every Deployment selects its own team's pool: no two ask the same.
    docs = [node_pool(i, "amd64") for i in range(n)]
    docs += [deployment(f"web-{i}", spec_extra=f"      nodeSelector: {{team: t{i}}}\n") for i in range(n)]
    return Shape(docs)


def pools_and_zones(n):
    # Pools and Deployments on a well-known label no index narrows (every
    # pool's nodes may carry a zone): what is left for the run's budget.
    docs = [node_pool(i, "amd64").replace("      labels: {team: t%d}\n" % i,
                                          "      labels: {topology.kubernetes.io/zone: z%d}\n" % i)
            for i in range(n)]
    docs += [deployment(f"web-{i}", spec_extra=f"      nodeSelector: {{topology.kubernetes.io/zone: z{n - 1 - i}}}\n"
                        "      tolerations: [{operator: Exists}]\n") for i in range(n)]
    return Shape(docs)


def declared_pools(n):
    pool_lines = "".join(f"  - {{name: pool{i}, labels: {{team: t{i}}}, archs: [arm64], "
                         f"taints: [{{key: kubernetes.io/arch, value: arm64, effect: NoSchedule}}]}}\n"
                         for i in range(n))
    return Shape([deployment(f"web-{i}") for i in range(n)],
                 config="nodePools:\n  pools:\n" + pool_lines)


def spread_profiles(n):
    profiles = "".join(
        f"  - name: p{i}\n    workloads: {{matchLabels: {{app: web-{i}}}}}\n"
        f"    groups:\n    - {{nodeLabel: topology.kubernetes.io/zone=a, weight: 1}}\n"
        f"    - {{nodeLabel: topology.kubernetes.io/zone=b, weight: 1}}\n" for i in range(n))
    docs = [deployment(f"web-{i}", EVERYWHERE).replace("spec:\n  selector", "spec:\n  replicas: 4\n  selector", 1)
            for i in range(n)]
    return Shape(docs, config="spread:\n  profiles:\n" + profiles)


def kinds_extra(n):
    return Shape([deployment("web")],
                 config="kinds:\n  extra:\n" + "".join(f"  - {{kind: K{i:x}, podTemplate: a}}\n"
                                                       for i in range(n)))


def distributors(n):
    docs = []
    for i in range(n):
        docs.append(deployment(f"web-{i}", EVERYWHERE).replace("spec:\n  selector", "spec:\n  replicas: 4\n  selector", 1))
        docs.append(f"apiVersion: versprei.versprei.io/v1beta1\nkind: PodDistributor\nmetadata: {{name: d{i}}}\n"
                    f"spec:\n  distribution:\n  - {{nodeLabel: topology.kubernetes.io/zone=a, weight: 1}}\n"
                    f"  - {{nodeLabel: topology.kubernetes.io/zone=b, weight: 1}}\n"
                    f"  target: {{apiVersion: apps/v1, kind: Deployment, name: web-{i}}}\n")
    return Shape(docs)


def pull_secrets(n):
    docs = [f"apiVersion: v1\nkind: Secret\nmetadata: {{name: s{i}}}\ntype: kubernetes.io/dockerconfigjson\n"
            f"data:\n  .dockerconfigjson: eyJhdXRocyI6e319\n" for i in range(n)]
    return Shape(docs + [deployment("web")])
