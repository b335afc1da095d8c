// The nodePools section of the configuration, as data.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <archfit/nodepools/model/pool.hpp>
#include <archfit/spread/model/profile.hpp>

namespace archfit::nodepools {

struct Settings {
  // fix may change pool objects of the input (add an architecture's taint).
  bool fix = false;
  // Pools that are not manifests (GKE, AKS or static node groups), from
  // nodePools.pools.
  std::vector<Pool> declared;
  // Architectures of instance types archfit does not know (nodePools.instanceArchs).
  std::map<std::string, std::string> instance_archs;
  // archfit's own weighted spreads (spread.profiles).
  std::vector<spread::SpreadProfile> spread_profiles;
};

}  // namespace archfit::nodepools
