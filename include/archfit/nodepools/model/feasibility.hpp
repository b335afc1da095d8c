// Can a pool host a pod template's pods? The scheduler's and Karpenter's
// checks done offline: the pool's taints against the pod's tolerations
// (startup taints excepted), then its labels and requirements against the
// pod's nodeSelector and required node affinity, and the architectures the
// pod's images run on. The answer, when no, is the first reason, worded as
// Karpenter words it.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include <archfit/nodepools/model/pool.hpp>
#include <archfit/nodepools/model/requirement.hpp>
#include <archfit/yaml/value.hpp>

namespace archfit::nodepools {

struct Toleration {
  std::string key;
  std::string op = "Equal";  // Equal | Exists
  std::string value;
  std::string effect;  // "" for every effect
};

bool tolerates(const Toleration& toleration, const Taint& taint);
bool tolerates(const std::vector<Toleration>& tolerations, const Taint& taint);

struct PodNeeds {
  std::vector<std::pair<std::string, std::string>> node_selector;
  // The terms of required node affinity (any one may hold), each a list of
  // matchExpressions that must all hold; empty: no required affinity.
  std::vector<std::vector<Requirement>> terms;
  std::vector<Toleration> tolerations;
  // The topology keys of its topologySpreadConstraints with whenUnsatisfiable
  // DoNotSchedule: a node without the label is not a candidate.
  std::vector<std::string> spread_keys;
  // The architectures the pod's images run on; nullopt when unknown.
  std::optional<std::set<std::string>> archs;
};

// The needs written in a pod spec given as data (its nodeSelector, affinity
// and tolerations; other fields are ignored). Values of the wrong shape are
// ignored: the API server would refuse them, and placement reports them.
PodNeeds needs_of(const yaml::Value& pod_spec);

// nullopt when the pool can host the pods; else why not.
std::optional<std::string> why_not(const PodNeeds& pod, const Pool& pool);
// The same, with the pool's keys read once (for many questions of one pool).
std::optional<std::string> why_not(const PodNeeds& pod, const PoolKeys& pool);

}  // namespace archfit::nodepools
