#include <algorithm>
#include <numeric>

#include <archfit/spread/model/allocation.hpp>

namespace archfit::spread {

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

std::optional<std::vector<std::uint32_t>> try_ratio(std::span<const Share> shares,
                                                    std::string* why) {
  std::uint32_t divisor = 0;
  for (const Share& s : shares)
    divisor = std::gcd(divisor, s.weight);
  if (divisor == 0) {
    if (why != nullptr) *why = "no group has a weight";
    return std::nullopt;
  }
  std::vector<std::uint32_t> out;
  std::uint64_t total = 0;
  for (const Share& s : shares) {
    out.push_back(s.weight / divisor);
    total += out.back();
  }
  if (total > kMaxRatioValues) {
    if (why != nullptr) {
      std::string ratio;
      for (std::uint32_t n : out)
        ratio += (ratio.empty() ? "" : ":") + std::to_string(n);
      *why = "the weights reduce to " + ratio + ", " + std::to_string(total) +
             " label values; a topology spread takes at most " + std::to_string(kMaxRatioValues) +
             " (round the weights)";
    }
    return std::nullopt;
  }
  return out;
}

}  // namespace archfit::spread
