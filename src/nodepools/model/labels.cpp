// The node labels archfit knows (labels.hpp).
#include <algorithm>
#include <array>
#include <utility>

#include <archfit/nodepools/model/labels.hpp>

namespace archfit::nodepools {

namespace {

using Alias = std::pair<std::string_view, std::string_view>;

constexpr std::array<Alias, 5> kAliases = {{
    {"beta.kubernetes.io/arch", "kubernetes.io/arch"},
    {"beta.kubernetes.io/os", "kubernetes.io/os"},
    {"beta.kubernetes.io/instance-type", "node.kubernetes.io/instance-type"},
    {"failure-domain.beta.kubernetes.io/zone", "topology.kubernetes.io/zone"},
    {"failure-domain.beta.kubernetes.io/region", "topology.kubernetes.io/region"},
}};

// Karpenter's well-known labels that every node it launches carries.
constexpr std::array<std::string_view, 7> kKarpenterAlways = {
    "kubernetes.io/arch",
    "kubernetes.io/os",
    "node.kubernetes.io/instance-type",
    "topology.kubernetes.io/zone",
    "topology.kubernetes.io/region",
    "karpenter.sh/capacity-type",
    "karpenter.sh/nodepool",
};

// Labels a cloud provider's Karpenter registers, by prefix; every node of
// that provider carries them, except those below.
constexpr std::array<std::string_view, 4> kProviderPrefixes = {
    "karpenter.k8s.aws/", "topology.k8s.aws/", "karpenter.azure.com/", "karpenter.k8s.gcp/"};

// Provider labels only some instance types carry: accelerators, GPUs, local
// NVMe. A pod may keep off them (DoesNotExist) and still find a node.
constexpr std::array<std::string_view, 5> kOptionalParts = {"-gpu-", "-accelerator-", "local-nvme",
                                                            "-gpu", "-accelerator"};

// Every node carries these, whoever made it (fixed node groups).
constexpr std::array<std::string_view, 6> kFixedAlways = {
    "kubernetes.io/arch",          "kubernetes.io/os",
    "kubernetes.io/hostname",      "node.kubernetes.io/instance-type",
    "topology.kubernetes.io/zone", "topology.kubernetes.io/region",
};

template <std::size_t N>
bool listed(const std::array<std::string_view, N>& list, std::string_view key) {
  return std::find(list.begin(), list.end(), key) != list.end();
}

bool provider_label(std::string_view key) {
  return std::any_of(kProviderPrefixes.begin(), kProviderPrefixes.end(),
                     [key](std::string_view p) { return key.starts_with(p); });
}

bool optional_provider_label(std::string_view key) {
  return std::any_of(kOptionalParts.begin(), kOptionalParts.end(), [key](std::string_view part) {
    return key.find(part) != std::string_view::npos;
  });
}

// Karpenter's restricted domain: karpenter.sh and its sub-domains.
bool karpenter_domain(std::string_view key) {
  std::string_view prefix = key.substr(0, key.find('/'));
  return prefix == "karpenter.sh" || prefix.ends_with(".karpenter.sh");
}

}  // namespace

std::string_view kind_name(LabelKind kind) {
  switch (kind) {
    case LabelKind::Always:
      return "always";
    case LabelKind::Optional:
      return "optional";
    case LabelKind::Restricted:
      return "restricted";
    case LabelKind::Undefined:
      return "undefined";
  }
  return "undefined";
}

bool is_well_known_node_label(std::string_view key) {
  return listed(kFixedAlways, key);
}

std::string well_known_node_labels() {
  std::string out;
  for (std::string_view key : kFixedAlways)
    out += (out.empty() ? "" : ", ") + std::string(key);
  return out;
}

std::string_view normalized_label(std::string_view key) {
  for (const auto& [alias, name] : kAliases) {
    if (key == alias) return name;
  }
  return key;
}

LabelKind karpenter_label_kind(std::string_view key, bool provisioner) {
  if (key == "karpenter.sh/nodepool")
    return provisioner ? LabelKind::Restricted : LabelKind::Always;
  if (key == "karpenter.sh/provisioner-name")
    return provisioner ? LabelKind::Always : LabelKind::Restricted;
  if (listed(kKarpenterAlways, key)) return LabelKind::Always;
  if (key == "node.kubernetes.io/windows-build") return LabelKind::Optional;  // Windows nodes only
  if (provider_label(key))
    return optional_provider_label(key) ? LabelKind::Optional : LabelKind::Always;
  if (key == "kubernetes.io/hostname" || karpenter_domain(key)) return LabelKind::Restricted;
  return LabelKind::Undefined;
}

LabelKind fixed_label_kind(std::string_view key) {
  if (listed(kFixedAlways, key)) return LabelKind::Always;
  if (key == "node.kubernetes.io/windows-build") return LabelKind::Optional;
  return LabelKind::Undefined;
}

const std::set<std::string>* known_label_values(std::string_view key) {
  static const std::set<std::string> kCapacityTypes = {"on-demand", "spot", "reserved"};
  static const std::set<std::string> kOperatingSystems = {"linux", "windows"};
  if (key == "karpenter.sh/capacity-type") return &kCapacityTypes;
  if (key == "kubernetes.io/os") return &kOperatingSystems;
  return nullptr;
}

}  // namespace archfit::nodepools
