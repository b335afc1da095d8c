// Dividing a workload's replicas among node groups by base and weight: the
// arithmetic of weighted spread (CustomPodScheduleStrategy annotations,
// PodDistributor objects, archfit's spread profiles).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace archfit::spread {

// One group's claim: at least `base` replicas, then its share by `weight` of
// the replicas the bases leave.
struct Share {
  std::uint32_t base = 0;
  std::uint32_t weight = 0;
};

constexpr std::uint32_t kMaxReplicas = 100'000;
constexpr std::uint32_t kMaxWeight = 1'000'000;
constexpr std::size_t kMaxGroups = 64;

// The replicas of each group, in the order of `shares`:
//  - bases first, group by group, as far as the replicas go;
//  - the rest by weight with Balinski and Young's quota method: each next
//    replica goes to the group with the largest weight / (its count + 1)
//    among those still under their upper quota; ties go to the group listed
//    last. Every group then has its exact share rounded down or up (never
//    further from it), and one replica more never takes one from a group
//    (scaling up moves no pod).
// nullopt, with `why`, when replicas are left after the bases and no group
// has a weight to take them, or past the limits (which keep the arithmetic
// exact and the work bounded).
std::optional<std::vector<std::uint32_t>> try_allocate(std::uint32_t replicas,
                                                       std::span<const Share> shares,
                                                       std::string* why = nullptr);

// A topology spread (Karpenter's ratio technique) expresses weights as
// label values: a group gets weight / gcd(weights) values, and pods spread
// evenly over the values go to the groups in that ratio.
constexpr std::size_t kMaxRatioValues = 100;

// How many label values each group gets, in the order of `shares` (bases
// play no part); nullopt, with `why`, when no group has a weight or the
// weights need more than kMaxRatioValues values.
std::optional<std::vector<std::uint32_t>> try_ratio(std::span<const Share> shares,
                                                    std::string* why = nullptr);

}  // namespace archfit::spread
