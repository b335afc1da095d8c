// Can a pool host a pod template's pods? The scheduler's and Karpenter's
// checks done offline: the pool's taints against the pod's tolerations
// (startup taints excepted), then its labels and requirements against the
// pod's nodeSelector and required node affinity, and the operating systems
// and architectures the pod's images run on. A term the scheduler cannot
// read or that names nothing matches no node; node names (matchFields on
// metadata.name, kubernetes.io/hostname) are not known offline, so a fit
// that needs them says so. The answer, when no, is the first reason, worded
// as Karpenter (requirements) or the scheduler (what only it decides) words it.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <archfit/nodepools/model/pool.hpp>
#include <archfit/nodepools/model/requirement.hpp>
#include <archfit/yaml/value.hpp>

namespace archfit::nodepools {

struct Toleration {
  std::string key;
  std::string op = "Equal";  // Equal | Exists | Gt | Lt
  std::string value;
  std::string effect;  // "" for every effect
};

// As the scheduler decides it (k8s.io/api core/v1 Toleration.ToleratesTaint):
// Gt and Lt compare canonical integers, strictly (a taint's value above, or
// below, the toleration's), only where the cluster enables the feature gate
// TaintTolerationComparisonOperators (`comparison`); without it they
// tolerate nothing.
bool tolerates(const Toleration& toleration, const Taint& taint, bool comparison = false);
bool tolerates(const std::vector<Toleration>& tolerations, const Taint& taint,
               bool comparison = false);

// A canonical decimal integer of int64's range, as the scheduler reads one
// for Gt and Lt: no sign but '-', no leading zero, no spaces.
std::optional<std::int64_t> canonical_integer(std::string_view text);

// One term of required node affinity: its matchExpressions must all hold,
// and a node's name must be every name its matchFields require.
struct Term {
  std::vector<Requirement> expressions;
  std::vector<std::string> names;      // metadata.name In [name]
  std::vector<std::string> not_names;  // metadata.name NotIn [name]
  // Why the scheduler matches no node with the term ("" when it may): it has
  // no expression and no field, or a requirement it cannot read.
  std::string matches_nothing;
};

struct PodNeeds {
  std::vector<std::pair<std::string, std::string>> node_selector;
  // The terms of required node affinity (any one may hold); empty: no
  // required affinity.
  std::vector<Term> terms;
  std::vector<Toleration> tolerations;
  // The cluster enables the feature gate TaintTolerationComparisonOperators.
  bool comparison_operators = false;
  // The topology keys of its topologySpreadConstraints with whenUnsatisfiable
  // DoNotSchedule: a node without the label is not a candidate.
  std::vector<std::string> spread_keys;
  // The architectures and operating systems the pod's images run on;
  // nullopt when unknown.
  std::optional<std::set<std::string>> archs;
  std::optional<std::set<std::string>> oses;
};

// The needs written in a pod spec given as data (its nodeSelector, affinity
// and tolerations; other fields are ignored). Values of the wrong shape are
// ignored: the API server would refuse them, and placement reports them.
PodNeeds needs_of(const yaml::Value& pod_spec);

// nullopt when the pool can host the pods; else why not. With `by_name`, it
// is set when they fit only on nodes of names the pods require, which no
// pool's description says it has.
std::optional<std::string> why_not(const PodNeeds& pod, const Pool& pool, bool* by_name = nullptr);
// The same, with the pool's keys read once (for many questions of one pool).
std::optional<std::string> why_not(const PodNeeds& pod, const PoolKeys& pool,
                                   bool* by_name = nullptr);

}  // namespace archfit::nodepools
