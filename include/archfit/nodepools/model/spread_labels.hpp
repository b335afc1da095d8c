// The labels archfit's topology spread profiles ask a pool's nodes to carry:
// a profile over `key` whose group names the pool gives it `key In [values]`
// (docs/node-pools.md, "Topology spread").
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <archfit/base/key_index.hpp>
#include <archfit/nodepools/model/requirement.hpp>
#include <archfit/spread/model/profile.hpp>

namespace archfit::nodepools {

// The label requirements topology spread profiles give pools, read once from
// the profiles and found by pool name.
class SpreadLabels {
 public:
  SpreadLabels() = default;
  explicit SpreadLabels(const std::vector<spread::SpreadProfile>& profiles);
  // What they give the pool named `pool` (`key In [its values]`, one per
  // profile naming it), in profile order; profiles whose weights cannot be
  // written as values give none.
  const std::vector<Requirement>& of(std::string_view pool) const;
  bool empty() const { return by_pool_.empty(); }
  // What they give every pool, as one string: equal for equal labels.
  std::string signature() const;

 private:
  std::unordered_map<std::string, std::vector<Requirement>, KeyedHash, std::equal_to<>> by_pool_;
};

}  // namespace archfit::nodepools
