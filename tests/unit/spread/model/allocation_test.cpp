// Weighted spread's arithmetic: the predecessors' examples, and its laws over
// every replica count up to 500 with generated bases and weights.
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include <archfit/spread/model/allocation.hpp>

namespace archfit::spread {
namespace {

std::vector<std::uint32_t> allocate(std::uint32_t replicas, const std::vector<Share>& shares) {
  std::string why;
  std::optional<std::vector<std::uint32_t>> out = try_allocate(replicas, shares, &why);
  EXPECT_TRUE(out) << why;
  return out.value_or(std::vector<std::uint32_t>{});
}

TEST(Allocation, ThePredecessorsExamples) {
  // CustomPodScheduleStrategy: base=1,weight=0 : weight=1 : weight=1 over 10 replicas.
  EXPECT_EQ(allocate(10, {{1, 0}, {0, 1}, {0, 1}}), (std::vector<std::uint32_t>{1, 4, 5}));
  // PodDistributor: 80 / 20.
  EXPECT_EQ(allocate(10, {{0, 80}, {0, 20}}), (std::vector<std::uint32_t>{8, 2}));
  // Fewer replicas than the bases: the first bases first.
  EXPECT_EQ(allocate(2, {{1, 0}, {3, 1}}), (std::vector<std::uint32_t>{1, 1}));
  EXPECT_EQ(allocate(0, {{1, 1}, {0, 1}}), (std::vector<std::uint32_t>{0, 0}));
}

TEST(Allocation, RefusesWhatItCannotDivide) {
  std::string why;
  EXPECT_FALSE(try_allocate(3, std::vector<Share>{{1, 0}, {0, 0}}, &why));
  EXPECT_EQ(why, "2 replicas left after the bases, and no group has a weight to take them");
  EXPECT_TRUE(try_allocate(1, std::vector<Share>{{1, 0}, {0, 0}}, &why));
  EXPECT_FALSE(try_allocate(kMaxReplicas + 1, std::vector<Share>{{0, 1}}, &why));
  EXPECT_NE(why.find("more than the 100000"), std::string::npos) << why;
  EXPECT_FALSE(try_allocate(1, std::vector<Share>{{0, kMaxWeight + 1}}, &why));
  EXPECT_FALSE(try_allocate(1, std::vector<Share>(kMaxGroups + 1, Share{0, 1}), &why));
}

// For replicas 0..500: the counts add up, bases come first, each group's
// count beyond its base is its exact share rounded down or up, and one
// replica more never takes one from a group.
TEST(Allocation, LawsOverGeneratedShares) {
  std::mt19937 random(20261124);
  for (int round = 0; round < 60; ++round) {
    std::vector<Share> shares(1 + random() % 5);
    for (Share& s : shares) {
      s.base = random() % 3 == 0 ? random() % 4 : 0;
      s.weight = random() % 4 == 0 ? 0 : random() % (round % 2 == 0 ? 5 : 1000);
    }
    if (std::none_of(shares.begin(), shares.end(), [](const Share& s) { return s.weight > 0; })) {
      shares.back().weight = 1;
    }
    std::uint64_t bases = 0, weights = 0;
    for (const Share& s : shares) {
      bases += s.base;
      weights += s.weight;
    }
    std::vector<std::uint32_t> before(shares.size(), 0);
    for (std::uint32_t replicas = 0; replicas <= 500; ++replicas) {
      std::vector<std::uint32_t> now = allocate(replicas, shares);
      ASSERT_EQ(now.size(), shares.size());
      EXPECT_EQ(std::accumulate(now.begin(), now.end(), std::uint64_t{0}), replicas);
      for (std::size_t i = 0; i < now.size(); ++i) {
        EXPECT_GE(now[i], before[i]) << "replicas " << replicas << ", group " << i;
        if (replicas < bases) continue;
        ASSERT_GE(now[i], shares[i].base);
        // rest * w / W, rounded down or up.
        std::uint64_t exact = (replicas - bases) * std::uint64_t{shares[i].weight};
        std::uint64_t got = (now[i] - shares[i].base) * weights;
        EXPECT_LT(got, exact + weights) << "over its upper quota, replicas " << replicas;
        EXPECT_GT(got + weights, exact) << "under its lower quota, replicas " << replicas;
      }
      before = now;
    }
  }
}

// A topology spread's label values: Karpenter's example (on-demand 1, spot
// 4) and the ratio law over generated weights.
TEST(Ratio, KarpentersExampleAndTheLimits) {
  std::vector<Share> example{{0, 1}, {0, 4}};
  EXPECT_EQ(try_ratio(example), (std::vector<std::uint32_t>{1, 4}));
  std::vector<Share> scaled{{3, 20}, {0, 80}, {0, 0}};
  EXPECT_EQ(try_ratio(scaled), (std::vector<std::uint32_t>{1, 4, 0}));
  std::string why;
  std::vector<Share> none{{1, 0}, {0, 0}};
  EXPECT_FALSE(try_ratio(none, &why));
  EXPECT_EQ(why, "no group has a weight");
  std::vector<Share> fine{{0, 33}, {0, 67}};
  EXPECT_EQ(try_ratio(fine), (std::vector<std::uint32_t>{33, 67}));
  std::vector<Share> many{{0, 34}, {0, 67}};
  EXPECT_FALSE(try_ratio(many, &why));
  EXPECT_EQ(why,
            "the weights reduce to 34:67, 101 label values; a topology spread takes at most 100 "
            "(round the weights)");
}

TEST(Ratio, ValuesKeepTheWeightsRatioAndAreFewest) {
  std::mt19937 rng(7);
  for (int round = 0; round < 2000; ++round) {
    std::vector<Share> shares(1 + rng() % 6);
    for (Share& s : shares)
      s.weight = static_cast<std::uint32_t>(rng() % 4 == 0 ? 0 : 1 + rng() % 60);
    std::optional<std::vector<std::uint32_t>> values = try_ratio(shares);
    std::uint32_t divisor = 0;
    std::uint64_t total = 0;
    for (const Share& s : shares)
      divisor = std::gcd(divisor, s.weight);
    if (divisor == 0) {
      EXPECT_FALSE(values);
      continue;
    }
    for (const Share& s : shares)
      total += s.weight / divisor;
    ASSERT_EQ(values.has_value(), total <= kMaxRatioValues);
    if (!values) continue;
    std::uint32_t common = 0;
    for (std::size_t i = 0; i < shares.size(); ++i) {
      common = std::gcd(common, (*values)[i]);
      for (std::size_t j = 0; j < shares.size(); ++j)
        EXPECT_EQ(std::uint64_t{(*values)[i]} * shares[j].weight,
                  std::uint64_t{(*values)[j]} * shares[i].weight);
    }
    EXPECT_EQ(common, 1u);  // no fewer values keep the ratio
  }
}

}  // namespace
}  // namespace archfit::spread
