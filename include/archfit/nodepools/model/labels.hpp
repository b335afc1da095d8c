// The node labels archfit knows, read as Karpenter's scheduler reads them
// (its labels and requirements code, and the AWS provider's well-known
// labels) and, for fixed node groups, as the Kubernetes scheduler does. For
// each key: the name it is compared by (Karpenter normalizes the beta
// aliases), and what the nodes of a pool that says nothing of it carry.
// docs/node-pools.md has the table.
#pragma once

#include <set>
#include <string>
#include <string_view>

namespace archfit::nodepools {

// The well-known labels every node of a node group carries (kubelet's and
// the cloud's: kubernetes.io/arch, kubernetes.io/os, kubernetes.io/hostname,
// the instance type, zone and region), which a declared pool may say its
// nodes lack (wellKnownLabels); and their names, comma-separated.
bool is_well_known_node_label(std::string_view key);
std::string well_known_node_labels();

enum class LabelKind {
  Always,      // every node carries it; Karpenter gives a new node the value a pod asks for
  Optional,    // only the nodes of some instance types carry it (a GPU's name)
  Restricted,  // Karpenter never gives a new node a value a pod asks for
  Undefined,   // nothing archfit knows of puts it on a node
};

// "always", "optional", "restricted", "undefined".
std::string_view kind_name(LabelKind kind);

// The current name of a label Karpenter normalizes (beta.kubernetes.io/arch
// is kubernetes.io/arch, failure-domain.beta.kubernetes.io/zone is
// topology.kubernetes.io/zone, ...); the key itself otherwise.
std::string_view normalized_label(std::string_view key);

// What the key is on the nodes Karpenter launches for a NodePool (v1 and
// v1beta1), or for a Provisioner (v1alpha5) when `provisioner`, that names
// neither a label nor a requirement for it. Give a normalized key.
LabelKind karpenter_label_kind(std::string_view key, bool provisioner);

// What the key is on a fixed group of nodes (an eksctl node group, a pool
// declared in .archfit.yaml) that names no label for it.
LabelKind fixed_label_kind(std::string_view key);

// Every value a normalized label can have, when that is a known, closed set
// (karpenter.sh/capacity-type: on-demand, spot, reserved; kubernetes.io/os:
// linux, windows); nullptr when any value may be.
const std::set<std::string>* known_label_values(std::string_view key);

}  // namespace archfit::nodepools
