#include <algorithm>

#include <archfit/nodepools/model/spread_labels.hpp>

namespace archfit::nodepools {

using spread::Realisation;
using spread::SpreadProfile;

SpreadLabels::SpreadLabels(const std::vector<SpreadProfile>& profiles) {
  for (const SpreadProfile& p : profiles) {
    if (p.realisation != Realisation::TopologySpread) continue;
    std::optional<std::vector<std::vector<std::string>>> values = p.values();
    if (!values) continue;
    for (std::size_t i = 0; i < p.groups.size(); ++i) {
      if (!(*values)[i].empty())
        by_pool_[p.groups[i].pool].push_back(
            Requirement{p.topology_key(), Operator::In, (*values)[i]});
    }
  }
}

const std::vector<Requirement>& SpreadLabels::of(std::string_view pool) const {
  static const std::vector<Requirement> none;
  auto it = by_pool_.find(pool);
  return it == by_pool_.end() ? none : it->second;
}

std::string SpreadLabels::signature() const {
  std::vector<const std::pair<const std::string, std::vector<Requirement>>*> sorted;
  for (const auto& entry : by_pool_)
    sorted.push_back(&entry);
  std::sort(sorted.begin(), sorted.end(),
            [](const auto* a, const auto* b) { return a->first < b->first; });
  std::string out;
  auto put = [&out](std::string_view s) {
    out += std::to_string(s.size());
    out += ':';
    out += s;
  };
  for (const auto* entry : sorted) {
    put(entry->first);
    put(std::to_string(entry->second.size()));
    for (const Requirement& r : entry->second) {
      put(r.key);
      put(std::to_string(r.values.size()));
      for (const std::string& v : r.values)
        put(v);
    }
  }
  return out;
}

}  // namespace archfit::nodepools
