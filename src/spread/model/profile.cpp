#include <algorithm>

#include <archfit/spread/model/profile.hpp>

namespace archfit::spread {

bool SpreadProfile::selects(const std::vector<std::pair<std::string, std::string>>& labels,
                            const std::string& namespace_name) const {
  if (!assigns) return false;
  if (!namespaces.empty() &&
      std::find(namespaces.begin(), namespaces.end(), namespace_name) == namespaces.end()) {
    return false;
  }
  for (const auto& wanted : match_labels) {
    if (std::find(labels.begin(), labels.end(), wanted) == labels.end()) return false;
  }
  return true;
}

std::optional<std::vector<std::vector<std::string>>> SpreadProfile::values(std::string* why) const {
  std::vector<Share> shares;
  for (const ProfileGroup& g : groups)
    shares.push_back(g.share);
  std::optional<std::vector<std::uint32_t>> counts = try_ratio(shares, why);
  if (!counts) return std::nullopt;
  std::vector<std::vector<std::string>> out;
  std::uint32_t next = 1;
  for (std::uint32_t n : *counts) {
    std::vector<std::string>& values = out.emplace_back();
    for (std::uint32_t k = 0; k < n; ++k)
      values.push_back(std::to_string(next++));
  }
  return out;
}

}  // namespace archfit::spread
