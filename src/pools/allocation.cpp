#include <algorithm>

#include <archfit/pools/allocation.hpp>

namespace archfit::pools {

std::optional<std::vector<std::uint32_t>> try_allocate(std::uint32_t replicas,
                                                       std::span<const Share> shares,
                                                       std::string* why) {
  auto refuse = [why](std::string message) -> std::optional<std::vector<std::uint32_t>> {
    if (why != nullptr) *why = std::move(message);
    return std::nullopt;
  };
  if (replicas > kMaxReplicas) {
    return refuse(std::to_string(replicas) + " replicas, more than the " +
                  std::to_string(kMaxReplicas) + " archfit spreads");
  }
  if (shares.size() > kMaxGroups) {
    return refuse(std::to_string(shares.size()) + " groups, more than the " +
                  std::to_string(kMaxGroups) + " archfit spreads over");
  }
  for (const Share& s : shares) {
    if (s.weight > kMaxWeight) {
      return refuse("a weight of " + std::to_string(s.weight) + ", more than " +
                    std::to_string(kMaxWeight));
    }
  }
  std::vector<std::uint32_t> count(shares.size(), 0);
  std::uint32_t left = replicas;
  std::uint64_t total_weight = 0;
  for (std::size_t i = 0; i < shares.size(); ++i) {
    count[i] = std::min(shares[i].base, left);
    left -= count[i];
    total_weight += shares[i].weight;
  }
  if (left == 0) return count;
  if (total_weight == 0) {
    return refuse(std::to_string(left) + " replica" + (left == 1 ? "" : "s") +
                  " left after the bases, and no group has a weight to take them");
  }
  // The quota method over the replicas after the bases: `given` of them so
  // far, `above[i]` of them group i's. The limits keep every product below
  // 2^63.
  std::vector<std::uint64_t> above(shares.size(), 0);
  for (std::uint64_t given = 0; given < left; ++given) {
    std::size_t best = shares.size();
    for (std::size_t i = 0; i < shares.size(); ++i) {
      std::uint64_t w = shares[i].weight;
      // Under its upper quota with one more: ceil((given + 1) w / W) > above.
      if (w == 0 || (given + 1) * w <= above[i] * total_weight) continue;
      // w_i / (n_i + 1) >= w_best / (n_best + 1): the later group wins a tie.
      if (best == shares.size() ||
          w * (above[best] + 1) >= std::uint64_t{shares[best].weight} * (above[i] + 1)) {
        best = i;
      }
    }
    ++above[best];
    ++count[best];
  }
  return count;
}

}  // namespace archfit::pools
