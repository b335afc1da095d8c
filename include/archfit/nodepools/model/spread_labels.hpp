// The labels archfit's topology spread profiles ask a pool's nodes to carry:
// a profile over `key` whose group names the pool gives it `key In [values]`
// (docs/spread.md).
#pragma once

#include <string>
#include <vector>

#include <archfit/nodepools/model/requirement.hpp>
#include <archfit/spread/model/profile.hpp>

namespace archfit::nodepools {

// The label requirements topology spread profiles give the pool named
// `pool` (`key In [its values]`, one per profile naming it), in profile order;
// profiles whose weights cannot be written as values give none.
std::vector<Requirement> spread_requirements(const std::string& pool,
                                             const std::vector<spread::SpreadProfile>& profiles);

}  // namespace archfit::nodepools
