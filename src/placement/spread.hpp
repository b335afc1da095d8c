// Writing a topology spread (Karpenter's ratio technique) into a pod spec:
// the spread over the profile's label, and the label's values in every
// required node selector term, so that pods never wait for a domain their
// images cannot run in.
#pragma once

#include <string>
#include <vector>

#include <archfit/spread/model/distributor.hpp>
#include <archfit/spread/model/profile.hpp>

#include "placement/draft.hpp"

namespace archfit::placement::detail {

struct SpreadOutcome {
  std::string refused;                // why nothing was written
  std::vector<std::string> excluded;  // "pool \"a\" (its nodes run arm64)"
  std::vector<std::string> kept;      // "pool \"b\" (values 2, 3)"
  std::vector<std::string> values;    // of the kept groups
  bool added = false;                 // the draft changed
};

// Adds to the draft what `spread` asks for, for pods whose images run on
// `archs`: groups whose pools run none of them are left out.
SpreadOutcome add_topology_spread(Draft& d, const spread::TopologySpread& spread,
                                  const std::vector<std::string>& archs);

const Path& spread_constraints_path();

}  // namespace archfit::placement::detail
