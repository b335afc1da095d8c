// What a configuration's spreads see, indexed: the answers are those of a
// scan of every profile, distributor and pool.
#include <random>

#include <gtest/gtest.h>

#include <archfit/spread/spread.hpp>

namespace archfit::spread {
namespace {

TEST(SpreadWorld, PicksTheProfileAScanWouldPick) {
  std::mt19937 random(3);
  auto pick = [&random](int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(random);
  };
  auto label = [&pick] {
    return std::pair<std::string, std::string>{"k" + std::to_string(pick(0, 3)),
                                               "v" + std::to_string(pick(0, 3))};
  };
  std::vector<nodepools::Pool> no_pools;
  for (int round = 0; round < 200; ++round) {
    std::vector<SpreadProfile> profiles;
    for (int i = pick(0, 12); i > 0; --i) {
      SpreadProfile p;
      p.name = "p" + std::to_string(profiles.size());
      p.assigns = pick(0, 4) != 0;
      for (int l = pick(0, 2); l > 0; --l)
        p.match_labels.push_back(label());
      for (int n = pick(0, 1) * pick(1, 2); n > 0; --n)
        p.namespaces.push_back("ns" + std::to_string(pick(0, 2)));
      profiles.push_back(std::move(p));
    }
    auto stream = spread_stream({}, no_pools);
    SpreadWorld world(stream, {}, profiles, nullptr);
    for (int q = 0; q < 30; ++q) {
      std::vector<std::pair<std::string, std::string>> labels;
      for (int l = pick(0, 4); l > 0; --l)
        labels.push_back(label());
      std::string ns = "ns" + std::to_string(pick(0, 2));
      const SpreadProfile* scanned = nullptr;
      for (const SpreadProfile& p : profiles) {
        if (p.selects(labels, ns)) {
          scanned = &p;
          break;
        }
      }
      const SpreadProfile* found = world.profile_for(labels, ns);
      ASSERT_EQ(found == nullptr ? std::string("none") : found->name,
                scanned == nullptr ? std::string("none") : scanned->name)
          << "round " << round;
      if (!profiles.empty()) {
        EXPECT_EQ(world.profile_named(profiles.back().name)->name,
                  std::find_if(profiles.begin(), profiles.end(), [&](const SpreadProfile& p) {
                    return p.name == profiles.back().name;
                  })->name);
      }
    }
  }
}

TEST(SpreadWorld, FindsPoolsByNameInStreamOrder) {
  std::vector<nodepools::Pool> pools(3);
  pools[0].name = "a";
  pools[0].source = nodepools::PoolSource::NodeGroup;
  pools[1].name = "a";
  pools[1].source = nodepools::PoolSource::NodePool;
  pools[2].name = "b";
  pools[2].source = nodepools::PoolSource::NodePool;
  std::vector<nodepools::Pool> declared(1);
  declared[0].name = "c";
  declared[0].source = nodepools::PoolSource::Declared;
  SpreadWorld world(spread_stream({}, pools), declared, {}, nullptr);
  EXPECT_EQ(world.first_named("a"), &pools[0]);
  EXPECT_EQ(world.last_karpenter_named("a"), &pools[1]);
  EXPECT_EQ(world.first_named("c"), &world.declared()[0]);
  EXPECT_EQ(world.last_karpenter_named("c"), nullptr);
  EXPECT_EQ(world.first_named("d"), nullptr);
}

TEST(SpreadWorld, AGroupsPoolsAreOnlyLookedForWithinTheBudget) {
  std::vector<nodepools::Pool> pools(2);
  pools[0].name = "arm";
  pools[0].source = nodepools::PoolSource::Declared;
  pools[0].labels.emplace_back("zone", "a");
  pools[0].taints.push_back(nodepools::Taint{"kubernetes.io/arch", "arm64", "NoSchedule"});
  pools[0].taints.push_back(nodepools::Taint{"gone", "", "PreferNoSchedule"});
  pools[1].name = "x86";
  pools[1].source = nodepools::PoolSource::Declared;
  pools[1].labels.emplace_back("zone", "b");
  WorkBudget budget(2 * (1 + pools.size()));
  SpreadWorld world(spread_stream({}, pools), {}, {}, &budget);
  std::optional<SpreadWorld::Group> a = world.group("zone", "a");
  ASSERT_TRUE(a);
  EXPECT_TRUE(a->known);
  ASSERT_EQ(a->taints.size(), 1u);  // not the PreferNoSchedule one
  EXPECT_EQ(a->taints[0].key, "kubernetes.io/arch");
  EXPECT_TRUE(world.group("zone", "a"));  // remembered: no more steps
  EXPECT_TRUE(world.group("zone", "b"));
  EXPECT_FALSE(world.group("zone", "c"));  // the budget is spent
}

}  // namespace
}  // namespace archfit::spread
