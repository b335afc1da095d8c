"""The scaling table: every input dimension archfit reads, on every surface.

Each row grows one dimension of the input (shapes.py) from n to 8n on one
surface and holds archfit to two promises (docs/performance.md, "How it
scales"): the processor time of the 8n run is within 12 times that of the n
run (a quadratic cost gives 64), and its peak memory within 4 times the bytes
it read plus 50 MiB. n is chosen so that a linear row's 8n run takes well
under two seconds, and for what placement reads of a template (its metadata,
nodeSelector, affinity, tolerations) so that 8n stays within the values a
template may hold, past which the template is not planned (a row of its own). A new shape of input adds a row here: the table is the
contract, and docs/performance.md shows it (tests/scaling/run.py --markdown).
"""

import shapes


class Row:
    def __init__(self, dimension, surface, shape, n, what):
        self.dimension = dimension
        self.surface = surface
        self.shape = shape
        self.n = n
        self.what = what

    @property
    def name(self):
        return f"{self.dimension}/{self.surface}"


LINT_FORMATS = ["text", "json", "sarif", "github", "junit", "markdown", "readiness-json",
                "readiness-html"]

# The surfaces (run.py turns a shape into each one's command and input).
SURFACES = ["fix", "fix-diff"] + [f"lint-{f}" for f in LINT_FORMATS] + [
    "post-render", "krm", "argocd", "images", "lock-set", "lock-prune", "lock-diff"]

ROWS = []


def row(dimension, surfaces, shape, n, what):
    for surface in surfaces:
        assert surface in SURFACES, surface
        ROWS.append(Row(dimension, surface, shape, n, what))


# Documents of a stream, on every surface that reads one.
row("documents", [s for s in SURFACES if not s.startswith("lock-")], shapes.documents, 2500,
    "Deployments in one stream")
row("list-items", ["fix", "fix-diff", "lint-json", "post-render", "krm"], shapes.list_items, 2500,
    "Deployments as the items of one kind: List")
row("list-items-flow", ["fix", "lint-json", "post-render"], shapes.list_items_flow, 2500,
    "Deployments as the items of one kind: List on one line")
row("list-items-anchored", ["fix", "lint-json"], shapes.list_items_anchored, 1000,
    "Deployments as the items of one kind: List, with anchors of their own")
row("files", ["fix", "lint-text", "lint-json", "images", "lint-readiness-json"], shapes.files, 500,
    "files of one Deployment each, in 50 x 400 directories")
row("settings", ["fix", "lint-text"], shapes.settings, 150,
    "directories with their own .archfit.yaml and archfit.lock")
row("template-annotations", ["fix", "fix-diff", "lint-json", "post-render", "krm"],
    shapes.template_annotations, 4000, "annotations of one pod template")
# Past what a template may hold (placement's kMostViewValues): the document is
# left as it is (invalid-document), in time and memory of its parse alone.
row("template-over-limit", ["fix", "lint-json", "post-render"], shapes.template_annotations, 40000,
    "annotations of one pod template, past the values archfit plans a template with")
row("template-labels", ["fix", "lint-json"], shapes.template_labels, 4000,
    "labels of one pod template")
row("pod-annotations", ["fix", "lint-json"], shapes.pod_annotations, 4000,
    "annotations of one Pod")
row("node-selector", ["fix", "lint-json"], shapes.node_selector, 4000,
    "nodeSelector keys of one pod template")
row("node-selector-terms", ["fix", "lint-json"], shapes.node_selector_terms, 500,
    "required nodeSelectorTerms of one pod template")
row("match-expressions", ["fix", "lint-json"], shapes.match_expressions, 800,
    "matchExpressions of one nodeSelectorTerm")
row("tolerations", ["fix", "lint-json"], shapes.tolerations, 1000,
    "tolerations of one pod template")
row("containers", ["fix", "lint-json", "lint-readiness-json"], shapes.containers, 1000,
    "containers of one pod template")
row("images", ["lint-json", "images", "lint-readiness-json", "lint-readiness-html"], shapes.images,
    1000,
    "distinct images, each in the lock file")
row("lock-entries", ["lint-json", "lock-set", "lock-prune", "lock-diff"], shapes.lock_entries,
    20000,
    "entries of the lock file")
# The readiness report: workloads their own constraints pin, each listed.
row("pinned-workloads", ["lint-readiness-json", "lint-readiness-html"], shapes.pinned, 2500,
    "workloads whose nodeSelector keeps them off a platform their images run on")
row("findings", [f"lint-{f}" for f in LINT_FORMATS], shapes.findings, 1000,
    "findings on one document")
row("name-length", ["fix", "lint-text", "lint-json", "lint-markdown"], shapes.name_length, 100000,
    "bytes of a Deployment's and a container's name")
row("line-length", ["fix", "lint-json"], shapes.line_length, 200000,
    "bytes of one line (a Deployment in flow style)")
row("pools", ["lint-json"], shapes.pools, 500, "Karpenter NodePools beside 20 Deployments")
row("pools-x-workloads", ["lint-json", "fix"], shapes.pools_and_workloads, 250,
    "NodePools and Deployments, both n")
row("pools-x-distinct-workloads", ["lint-json"], shapes.pools_and_distinct_workloads, 250,
    "NodePools and Deployments that each select one pool")
row("pools-x-zones", ["lint-json"], shapes.pools_and_zones, 250,
    "NodePools and Deployments that each select one pool's zone (the run's budget)")
row("declared-pools", ["lint-json"], shapes.declared_pools, 250,
    "pools of nodePools.pools and Deployments, both n")
row("spread-profiles", ["lint-json", "fix"], shapes.spread_profiles, 250,
    "spread.profiles and Deployments they select, both n")
row("kinds-extra", ["lint-json"], shapes.kinds_extra, 5000, "kinds.extra entries")
row("pod-distributors", ["lint-json", "fix"], shapes.distributors, 250,
    "PodDistributors and the Deployments they spread")
row("pull-secrets", ["lint-json"], shapes.pull_secrets, 2000,
    "dockerconfigjson Secrets of the stream")
