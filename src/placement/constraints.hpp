// Writing "run only on these platforms" into a pod spec's own vocabulary, by
// adding to what the user wrote and never rewriting it: requirements ANDed
// into every required nodeSelectorTerm that allows too much (terms are ORed,
// so a new term would widen placement), a nodeSelector entry, preferred
// terms, tolerations. Only placement.respectExisting: false takes anything
// of the user's out: their architecture constraints.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <archfit/image/platform_set.hpp>
#include <archfit/placement/config.hpp>
#include <archfit/yaml/value.hpp>

#include "placement/draft.hpp"
#include "placement/labels.hpp"

namespace archfit::placement::detail {

// Node selector requirements that together select exactly the nodes of the
// platforms in S: alternatives (ORed), each a list of matchExpressions
// (ANDed). Usually one alternative: {kubernetes.io/arch In [archs]}, with
// {kubernetes.io/os In [oses]} added when the cluster runs several OSes.
using Alternatives = std::vector<std::vector<yaml::Value>>;
Alternatives requirements_for(const image::PlatformSet& S, const NodeModel& nodes);

// Paths of the view (see view.hpp) that placement writes to.
const Path& terms_path();
const Path& preferred_path();
const Path& tolerations_path();
const Path& node_selector_path();

// Restricts the pods to S (which must leave something the user's own
// constraints allow). Each required term that allows something outside S
// gets the requirements ANDed in (a copy of it per further alternative);
// without terms, mode nodeSelector with one architecture adds nodeSelector
// entries and every other case adds one required term per alternative.
// Returns true when it wrote nodeSelector entries (not node affinity).
bool restrict_to(Draft& d, const image::PlatformSet& S, const NodeModel& nodes, Mode mode);

// Adds preferredDuringScheduling terms for the weighted architectures of S
// that have no equal preference yet; true when it added any.
bool add_preferences(Draft& d, const image::PlatformSet& S, const NodeModel& nodes);

// Adds the tolerations the configuration asks for on `archs` that the pods
// do not have yet; returns them.
std::vector<Toleration> add_tolerations(Draft& d, const std::vector<std::string>& archs,
                                        const Config& config);
// Adds those of `wanted` the pods do not tolerate yet; returns them.
std::vector<Toleration> add_tolerations(Draft& d, const std::vector<Toleration>& wanted);

// placement.respectExisting: false. Takes out the user's architecture
// constraints (nodeSelector entries and required-term expressions on keys
// that tell architectures apart; terms, and then node affinity, left with
// nothing), so that archfit's own decide. `spec_index` gives a pod spec
// field's place among the spec's keys, for the record.
void take_arch_constraints(Draft& d, const NodeModel& nodes,
                           const std::function<std::size_t(const std::string&)>& spec_index);

// True when the value holds nothing (null, empty mapping or sequence).
bool is_empty(const yaml::Value& v);

}  // namespace archfit::placement::detail
