#include <archfit/nodepools/model/spread_labels.hpp>

namespace archfit::nodepools {

using spread::Realisation;
using spread::SpreadProfile;

std::vector<Requirement> spread_requirements(const std::string& pool,
                                             const std::vector<SpreadProfile>& profiles) {
  std::vector<Requirement> out;
  for (const SpreadProfile& p : profiles) {
    if (p.realisation != Realisation::TopologySpread) continue;
    std::optional<std::vector<std::vector<std::string>>> values = p.values();
    if (!values) continue;
    for (std::size_t i = 0; i < p.groups.size(); ++i) {
      if (p.groups[i].pool == pool && !(*values)[i].empty())
        out.push_back(Requirement{p.topology_key(), Operator::In, (*values)[i]});
    }
  }
  return out;
}

}  // namespace archfit::nodepools
