// The PodDistributor objects (versprei.versprei.io/v1beta1) of the in-cluster
// spreading webhooks: a workload's replicas divided among node groups by weight.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <archfit/spread/model/strategy.hpp>
#include <archfit/yaml/node.hpp>

namespace archfit::spread {

// A PodDistributor: the groups (spec.distribution[].nodeLabel, a mapping
// {key: value} as the CRD writes it or the string "key=value", and weight) for
// the workload spec.target names.
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

}  // namespace archfit::spread
