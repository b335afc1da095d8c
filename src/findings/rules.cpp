#include <array>

#include <archfit/base/error.hpp>
#include <archfit/findings/rules.hpp>

namespace archfit::findings {

namespace {

constexpr std::array kRules = {
    Rule{"missing-arch-affinity", Severity::Error, true,
         "Pods can be scheduled onto nodes whose architecture their images do not support",
         "The images of the pod template do not run on every platform of the cluster, and "
         "nothing in the template keeps its pods off the nodes they cannot run on. There a "
         "container dies at once with `exec format error` and the pod crash-loops. archfit fix "
         "adds required node affinity on kubernetes.io/arch (and kubernetes.io/os where it "
         "matters) for the platforms every image supports."},
    Rule{"pinned-to-unsupported-platform", Severity::Error, true,
         "The template's own placement allows a platform one of its images does not support",
         "A nodeSelector or required node affinity on kubernetes.io/arch or kubernetes.io/os, "
         "written by a person, lets the pods go to a platform one of the images is not built "
         "for. archfit fix narrows it to the supported platforms when some remain."},
    Rule{"no-common-platform", Severity::Error, false,
         "No platform of the cluster runs every image of the pod",
         "The containers of the pod have no platform in common among the cluster's, so there is "
         "no node on which all of them can start: rebuild an image for the missing platform or "
         "move the container to another pod."},
    Rule{"missing-toleration", Severity::Warning, true,
         "Pods that can run on tainted architecture nodes do not tolerate the taint",
         "The pods may run on nodes of an architecture whose nodes are tainted (by default "
         "kubernetes.io/arch=arm64:NoSchedule) and the template does not tolerate that taint, so "
         "they never use those nodes, or never start when no other node fits. archfit fix adds "
         "the toleration."},
    Rule{"unresolved-image", Severity::Warning, false,
         "The platforms of an image could not be found",
         "The image is not in the lock file and the registry did not answer, or the container "
         "has imagePullPolicy: Never. archfit leaves the workload alone until the image is "
         "resolved: run archfit lock (without a registry: archfit lock --set IMAGE=PLATFORMS), or "
         "set resolve.fallbackPlatforms."},
    Rule{"invalid-image-reference", Severity::Error, false,
         "The image field is not an image reference",
         "An unrendered template, a placeholder, uppercase letters in the repository or an empty "
         "tag: Kubernetes would reject it or fail to pull it, and archfit cannot look it up."},
    Rule{"stale-placement", Severity::Warning, true,
         "What archfit wrote earlier differs from what it would write now",
         "The template carries archfit's record from an earlier run (archfit.io/owned) and the "
         "images, the configuration or the written values changed since. archfit fix brings it "
         "up to date; a value a person changed is left to that person."},
    Rule{"uneditable-yaml", Severity::Error, false,
         "archfit leaves the pod template as it is because editing it would change something "
         "else",
         "The template or a field on the way sits under an anchor that an alias uses elsewhere, "
         "is an alias or a merge key's value, or uses a construct archfit does not edit (an "
         "explicit key). What fix would have written is reported so that a person can write "
         "it."},
    Rule{"invalid-document", Severity::Error, false,
         "A document the API server would refuse; archfit leaves it as it is",
         "A key given twice in one mapping, a node pool, PodDistributor or pull secret that is "
         "malformed, a value of the wrong type, or a limit archfit keeps (nesting, aliases, the "
         "values of a pod template's placement fields): "
         "the fault is confined to the document, which archfit neither analyses nor edits. "
         "The file's other documents and the other files are processed as usual."},
    Rule{"unreadable-file", Severity::Error, false,
         "archfit could not read the file and left all of it as it is",
         "A YAML syntax error, bytes that are not UTF-8 text, a file larger than the limit or "
         "one that cannot be opened. Nothing of the file is edited (findings of documents "
         "before the fault are reported); the other files are processed as usual."},
    Rule{"mutable-tag", Severity::Info, false, "An image is referenced by a tag without a digest",
         "A tag can be moved to an image built for other platforms; the placement archfit "
         "computed is then out of date until the next run. Pin a digest where that matters."},
    Rule{"invalid-node-affinity", Severity::Error, false,
         "The template's nodeSelector or node affinity is something the API server refuses",
         "An unknown operator, values where the operator takes none or none where it needs "
         "them, a term without expressions, or a value of the wrong type. archfit leaves the "
         "template alone: fix the affinity first."},
    Rule{"invalid-toleration", Severity::Error, false,
         "The template's tolerations are something the API server refuses",
         "A list that is not a list, a toleration that is not a mapping, a field that is not a "
         "string, an unknown operator or effect, Exists with a value, or no key without "
         "Exists. archfit leaves the template alone: fix the tolerations first."},
    Rule{"no-feasible-pool", Severity::Error, false,
         "No node pool of the cluster can run the pod template's pods",
         "Checked offline against every pool archfit knows (Karpenter NodePools and "
         "Provisioners, eksctl node groups, nodePools.pools): taints against tolerations, "
         "labels and requirements against nodeSelector and required node affinity, and the "
         "architectures the images run on. The pods would stay Pending. The message gives each "
         "pool's first reason, in Karpenter's words."},
    Rule{"pool-fit-needs-node-names", Severity::Warning, false,
         "The pods fit a node pool only on nodes of the names they require",
         "The template's required node affinity names nodes (matchFields on metadata.name, "
         "or kubernetes.io/hostname In): a pool's description does not say what its nodes are "
         "called, so archfit cannot tell whether the pods will find such a node. Name nodes "
         "by labels a pool declares instead, or check the names against the cluster."},
    Rule{"pools-not-checked", Severity::Warning, false,
         "archfit stopped checking pod templates against the node pools",
         "Checking every template against every pool grows as their product. archfit checks "
         "pools that differ only in name once, templates that ask the same once, and finds the "
         "pools of a label's value by index; what is left may take a number of steps in "
         "proportion to the bytes the run read. An input whose templates and pools all differ, "
         "in ways no index narrows, can ask for more: this template and the ones after it were "
         "not checked. Split the input, or check it in parts."},
    Rule{"pool-arch-taint-missing", Severity::Warning, true,
         "A pool of one architecture lacks the taint its architecture's pods tolerate",
         "Pods without node affinity whose images do not run there can land on its nodes and "
         "fail with exec format error. fix appends the taint to Karpenter pools with "
         "nodePools.fix: true."},
    Rule{"pool-arch-taint-overreach", Severity::Warning, false,
         "A pool carries one architecture's taint but can run others",
         "Pods for the other architectures that do not tolerate the taint are kept off those "
         "nodes."},
    Rule{"pool-arch-unconstrained", Severity::Warning, false,
         "A Karpenter pool does not constrain kubernetes.io/arch",
         "Karpenter may launch nodes of any architecture its instance types offer; which one a "
         "pod gets depends on its affinity alone."},
    Rule{"pool-mixed-arch", Severity::Error, false, "A node group mixes architectures",
         "The nodes of a node group share one machine image, labels and taints; instance types "
         "of two architectures cannot."},
    Rule{"pool-unknown-arch", Severity::Warning, false,
         "archfit does not know the architecture of a node group's instance type",
         "Name it in nodePools.instanceArchs so that pool rules and feasibility can use it."},
    Rule{"spread-not-split", Severity::Warning, true,
         "A Deployment asks for a weighted spread that archfit has not written out",
         "A CustomPodScheduleStrategy annotation or a PodDistributor divides its replicas among "
         "node groups. fix splits it into one Deployment per group with exactly its share."},
    Rule{"spread-refused", Severity::Warning, false,
         "archfit does not split a workload that asks for a weighted spread",
         "An autoscaler scales it, it is not a Deployment, or its fields are not what a split "
         "can give back byte for byte; the message says which."},
    Rule{"spread-group-excluded", Severity::Warning, false,
         "A spread's node group is left out because its nodes cannot run the images",
         "Its replicas go to the other groups, by base and weight."},
    Rule{"spread-webhook", Severity::Info, false,
         "An in-cluster spreading webhook reads the same spread",
         "While one runs, it places the pods itself and overrides what archfit wrote."},
    Rule{"spread-not-applied", Severity::Warning, true,
         "A workload's topology spread profile is not written into its pods",
         "fix adds a topologySpreadConstraint (maxSkew 1, DoNotSchedule) over the profile's "
         "label, and an In expression on that label to every required node selector term."},
    Rule{"spread-base-unexpressed", Severity::Warning, false,
         "A topology spread profile gives a group a base, which a topology spread cannot keep",
         "Pods are divided by weight alone; realisation: split keeps bases (Deployments without "
         "an autoscaler)."},
    Rule{"spread-pool-values-missing", Severity::Warning, true,
         "A Karpenter pool lacks the label values a topology spread profile gives it",
         "Its nodes never carry the label, so the profile's pods never go there. With "
         "nodePools.fix: true, fix adds the requirement."},
};

}  // namespace

std::string_view homepage() {
  return ARCHFIT_HOMEPAGE;
}

std::string Rule::help_uri() const {
  return std::string(homepage()) + "/blob/main/docs/rules.md#" + std::string(id);
}

std::span<const Rule> rules() {
  return kRules;
}

const Rule& rule(std::string_view id) {
  for (const Rule& r : kRules) {
    if (r.id == id) return r;
  }
  fail(ErrorKind::Internal, "a finding names the rule \"" + std::string(id) +
                                "\", which is not in the rule table (src/findings/rules.cpp)");
}

}  // namespace archfit::findings
