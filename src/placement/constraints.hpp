// Writing "run only on these platforms" into a pod spec's own vocabulary:
// node selector expressions ANDed into every existing nodeSelectorTerm (terms
// are ORed, so a new term would widen placement), a nodeSelector entry, or
// preferred terms; and taking archfit's own expressions out again.
#pragma once

#include <vector>

#include <archfit/image/platform_set.hpp>
#include <archfit/placement/config.hpp>
#include <archfit/yaml/value.hpp>

#include "placement/labels.hpp"

namespace archfit::placement::detail {

// Node selector requirements that together select exactly the nodes of the
// platforms in S: alternatives (ORed), each a list of matchExpressions
// (ANDed). Usually one alternative: {kubernetes.io/arch In [archs]}, with
// {kubernetes.io/os In [oses]} added when the cluster runs several OSes.
using Alternatives = std::vector<std::vector<yaml::Value>>;
Alternatives requirements_for(const image::PlatformSet& S, const NodeModel& nodes);

// The pod spec fields archfit manages, as data (null when absent).
struct PodPlacement {
  yaml::Value node_selector;
  yaml::Value affinity;
  yaml::Value tolerations;
};

// Restricts `p` so that it allows nothing outside S (S must leave something
// allowed). Terms that allow only unsupported platforms are dropped, terms
// that allow some are narrowed: an `In` expression on the same key is
// intersected, otherwise the requirement is appended. Without terms, mode
// nodeSelector with a single architecture writes nodeSelector entries and
// every other case adds one required term per alternative.
void restrict_to(PodPlacement& p, const image::PlatformSet& S, const NodeModel& nodes, Mode mode);

// Adds preferredDuringScheduling terms for the weighted architectures of S
// that have no equivalent preference yet.
void add_preferences(PodPlacement& p, const image::PlatformSet& S, const NodeModel& nodes);

// Takes out architecture and OS constraints: every nodeSelector entry and
// term expression on a key that only says which platform a node is. Used
// when respectExisting is off, so that archfit owns the platform dimension.
void drop_platform_constraints(PodPlacement& p, const NodeModel& nodes);

// Takes out what restrict_to and add_preferences add for S, and empty
// containers left behind. Expressions the user narrowed cannot be widened
// again: what archfit intersected stays intersected.
void remove_constraints_for(PodPlacement& p, const image::PlatformSet& S, const NodeModel& nodes);

// True when the value holds nothing (null, empty mapping or sequence).
bool is_empty(const yaml::Value& v);

}  // namespace archfit::placement::detail
