// Weighted spread: how a workload's replicas are to be divided among node
// groups, as the in-cluster spreading webhooks were told (the
// CustomPodScheduleStrategy annotation, PodDistributor objects of
// versprei.versprei.io/v1beta1).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <archfit/pools/strategy.hpp>
#include <archfit/yaml/node.hpp>

namespace archfit::pools {

inline constexpr const char* kStrategyAnnotation = "CustomPodScheduleStrategy";
// A Deployment's annotation naming the spread profile of .archfit.yaml it uses.
inline constexpr const char* kProfileAnnotation = "archfit.io/spread";

// A group of a spread profile: nodes by label, or a pool by name (whose
// nodes carry its name in a label: karpenter.sh/nodepool for a NodePool, the
// node group's label for eksctl, the first label of a declared pool).
struct ProfileGroup {
  std::string label_key;
  std::string label_value;
  std::string pool;  // instead of the label
  Share share;
};

// archfit's own spread (spread.profiles in .archfit.yaml): used by the
// Deployments that name it in their archfit.io/spread annotation, and, when
// `assigns`, by those its labels and namespaces select (no labels and no
// namespaces: every Deployment).
struct SpreadProfile {
  std::string name;
  std::vector<ProfileGroup> groups;
  bool assigns = false;
  std::vector<std::pair<std::string, std::string>> match_labels;
  std::vector<std::string> namespaces;

  bool selects(const std::vector<std::pair<std::string, std::string>>& labels,
               const std::string& namespace_name) const;
};

// A PodDistributor: the groups (spec.distribution[].nodeLabel "key=value",
// weight) for the workload spec.target names.
struct Distributor {
  std::string name;
  std::string namespace_name;
  std::string file;
  std::uint32_t line = 0;
  std::string target_api_version;
  std::string target_kind;
  std::string target_name;
  std::vector<StrategyGroup> groups;

  // "PodDistributor \"web\" (spread.yaml:3)"
  std::string title() const;
};

// Whether a document's text may hold a PodDistributor.
bool may_hold_distributors(std::string_view text);

// The PodDistributor a document is, or nothing for other objects. Throws
// Error(Input) at the value that is not what the kind allows.
std::optional<Distributor> read_distributor(yaml::NodeRef root);

}  // namespace archfit::pools
