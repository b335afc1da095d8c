// archfit's own weighted spread: the profiles of .archfit.yaml (spread.profiles)
// and the topology spread a profile gives a workload's pods.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include <archfit/spread/model/allocation.hpp>

namespace archfit::spread {

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

// How a profile's spread is made real: by splitting a Deployment into one
// per group, or by a topology spread over a label whose values the groups'
// Karpenter pools divide by weight (Karpenter's ratio technique).
enum class Realisation { Split, TopologySpread };

// The label of a topology spread profile when it names none.
inline constexpr const char* kSpreadLabelPrefix = "spread.archfit.io/";

// archfit's own spread (spread.profiles in .archfit.yaml): used by the
// Deployments that name it in their archfit.io/spread annotation, and, when
// `assigns`, by those its labels and namespaces select (no labels and no
// namespaces: every Deployment).
struct SpreadProfile {
  std::string name;
  std::vector<ProfileGroup> groups;
  Realisation realisation = Realisation::Split;
  std::string label;  // topologySpread: the node label (default kSpreadLabelPrefix + name)
  bool assigns = false;
  std::vector<std::pair<std::string, std::string>> match_labels;
  std::vector<std::string> namespaces;

  bool selects(const std::vector<std::pair<std::string, std::string>>& labels,
               const std::string& namespace_name) const;
  // The node label a topology spread is over.
  std::string topology_key() const { return label.empty() ? kSpreadLabelPrefix + name : label; }
  // The label values each group's pool carries, in the order of `groups`
  // (try_ratio of the weights, numbered from "1" on); nullopt, with `why`,
  // when the weights cannot be written as values.
  std::optional<std::vector<std::vector<std::string>>> values(std::string* why = nullptr) const;
};

// A topology spread for one workload's pods, as placement writes it: a
// topologySpreadConstraint (maxSkew 1, DoNotSchedule) over `key` for the
// pods `match_labels` select, and `key In [values]` in every required node
// selector term, with the values of the groups whose nodes run the pods'
// architectures (`archs`; empty when no pool says).
struct TopologySpread {
  struct Group {
    std::string pool;
    std::vector<std::string> values;
    std::set<std::string> archs;
  };
  std::string origin;  // "spread profile \"balanced\""
  std::string key;
  std::vector<Group> groups;
  std::vector<std::pair<std::string, std::string>> match_labels;
  bool has_bases = false;  // a group has a base, which this cannot express
};

}  // namespace archfit::spread
