// The readiness tally: the laws its report keeps over generated workloads
// (every workload counted once per platform as runnable, blocked or pinned;
// the same report in any order; rebuilding more images never frees less),
// and the counts of a small fleet worked out by hand.
#include <algorithm>
#include <random>

#include <gtest/gtest.h>

#include <archfit/readiness/tally.hpp>

namespace archfit::readiness {
namespace {

WorkloadFacts workload(std::string file, std::string name, std::uint64_t replicas,
                       std::vector<WorkloadFacts::On> on) {
  WorkloadFacts w;
  w.workload.file = std::move(file);
  w.workload.resource = findings::ResourceRef{"apps/v1", "Deployment", std::move(name), ""};
  w.workload.replicas = replicas;
  w.on = std::move(on);
  return w;
}

TEST(ReadinessTally, ASmallFleetCountedByHand) {
  Tally tally({"linux/amd64", "linux/arm64"});
  // web runs everywhere; db's image is amd64 only; cache is multi-arch but
  // pinned to amd64 by its own nodeSelector; job uses two amd64-only images.
  tally.add(workload("web.yaml", "web", 3, {{"linux/amd64", {}, true}, {"linux/arm64", {}, true}}));
  tally.add(
      workload("db.yaml", "db", 2, {{"linux/amd64", {}, true}, {"linux/arm64", {"db:1"}, true}}));
  tally.add(
      workload("cache.yaml", "cache", 4, {{"linux/amd64", {}, true}, {"linux/arm64", {}, false}}));
  tally.add(workload("job.yaml", "job", 1,
                     {{"linux/amd64", {}, true}, {"linux/arm64", {"db:1", "tool:2"}, true}}));
  WorkloadFacts unknown = workload("x.yaml", "x", 5, {});
  unknown.known = false;
  tally.add(unknown);

  report::Readiness r = tally.result();
  EXPECT_EQ(r.workloads, 5u);
  EXPECT_EQ(r.replicas, 15u);
  EXPECT_EQ(r.unknown, 1u);
  ASSERT_EQ(r.platforms.size(), 2u);
  EXPECT_EQ(r.platforms[0].platform, "linux/amd64");
  EXPECT_EQ(r.platforms[0].runnable, 4u);
  EXPECT_EQ(r.platforms[0].runnable_replicas, 10u);
  EXPECT_TRUE(r.platforms[0].blockers.empty());
  const report::PlatformReadiness& arm = r.platforms[1];
  EXPECT_EQ(arm.workloads, 4u);
  EXPECT_EQ(arm.runnable, 1u);
  EXPECT_EQ(arm.runnable_replicas, 3u);
  ASSERT_EQ(arm.blockers.size(), 2u);
  EXPECT_EQ(arm.blockers[0].image, "db:1");
  EXPECT_EQ(arm.blockers[0].workloads, 2u);
  EXPECT_EQ(arm.blockers[0].replicas, 3u);
  EXPECT_EQ(arm.blockers[0].files, (std::vector<std::string>{"db.yaml", "job.yaml"}));
  EXPECT_EQ(arm.blockers[1].image, "tool:2");
  ASSERT_EQ(arm.pinned.size(), 1u);
  EXPECT_EQ(arm.pinned[0].resource.name, "cache");
  // Rebuilding db:1 frees db (job still needs tool:2); with tool:2, job too.
  ASSERT_EQ(arm.freed.size(), 2u);
  EXPECT_EQ(arm.freed[0].workloads, 1u);
  EXPECT_EQ(arm.freed[0].replicas, 2u);
  EXPECT_EQ(arm.freed[1].workloads, 2u);
  EXPECT_EQ(arm.freed[1].replicas, 3u);
}

TEST(ReadinessTally, TemplatesOfOneWorkloadRunWhereAllOfThemDo) {
  WorkloadFacts a = workload("a.yaml", "a", 1, {{"linux/arm64", {"x:1"}, true}});
  WorkloadFacts b = workload("a.yaml", "a", 1, {{"linux/arm64", {"y:1"}, false}});
  a.merge(b);
  ASSERT_EQ(a.on.size(), 1u);
  EXPECT_EQ(a.on[0].missing, (std::vector<std::string>{"x:1", "y:1"}));
  EXPECT_FALSE(a.on[0].allowed);
}

// Generated fleets: the laws, whatever the fleet and the order.
TEST(ReadinessTally, LawsOverGeneratedFleets) {
  const std::vector<std::string> platforms = {"linux/amd64", "linux/arm64", "linux/s390x"};
  const std::vector<std::string> images = {"a:1", "b:1", "c:1", "d:1", "e:1"};
  for (unsigned seed = 1; seed <= 200; ++seed) {
    std::mt19937 rng(seed);
    std::vector<WorkloadFacts> fleet;
    const std::size_t n = 1 + rng() % 40;
    for (std::size_t i = 0; i < n; ++i) {
      std::vector<WorkloadFacts::On> on;
      for (const std::string& p : platforms) {
        WorkloadFacts::On o{p, {}, rng() % 4 != 0};
        for (const std::string& image : images) {
          if (rng() % 5 == 0) o.missing.push_back(image);
        }
        on.push_back(std::move(o));
      }
      WorkloadFacts w = workload("f" + std::to_string(rng() % 7) + ".yaml", "w" + std::to_string(i),
                                 rng() % 6, std::move(on));
      w.known = rng() % 10 != 0;
      fleet.push_back(std::move(w));
    }
    Tally forward(platforms);
    for (const WorkloadFacts& w : fleet)
      forward.add(w);
    std::shuffle(fleet.begin(), fleet.end(), rng);
    Tally shuffled(platforms);
    for (const WorkloadFacts& w : fleet)
      shuffled.add(w);
    report::Readiness r = forward.result();
    report::Readiness s = shuffled.result();

    std::size_t known = 0;
    for (const WorkloadFacts& w : fleet)
      known += w.known ? 1 : 0;
    EXPECT_EQ(r.workloads, n);
    EXPECT_EQ(r.unknown, n - known);
    ASSERT_EQ(r.platforms.size(), s.platforms.size());
    for (std::size_t k = 0; k < r.platforms.size(); ++k) {
      const report::PlatformReadiness& p = r.platforms[k];
      const report::PlatformReadiness& q = s.platforms[k];
      // The same report in any order.
      EXPECT_EQ(p.platform, q.platform);
      EXPECT_EQ(p.runnable, q.runnable);
      EXPECT_EQ(p.runnable_replicas, q.runnable_replicas);
      ASSERT_EQ(p.blockers.size(), q.blockers.size());
      for (std::size_t b = 0; b < p.blockers.size(); ++b) {
        EXPECT_EQ(p.blockers[b].image, q.blockers[b].image);
        EXPECT_EQ(p.blockers[b].files, q.blockers[b].files);
      }
      ASSERT_EQ(p.pinned.size(), q.pinned.size());
      for (std::size_t b = 0; b < p.pinned.size(); ++b)
        EXPECT_EQ(p.pinned[b].resource.name, q.pinned[b].resource.name);
      // Every known workload is counted here once: runnable, blocked or pinned.
      std::size_t blocked = 0;
      for (const WorkloadFacts& w : fleet) {
        if (!w.known) continue;
        for (const auto& o : w.on) {
          if (o.platform == p.platform && !o.missing.empty()) ++blocked;
        }
      }
      EXPECT_EQ(p.workloads, known);
      EXPECT_EQ(p.runnable + blocked + p.pinned.size(), p.workloads);
      // Ranked: most workloads first.
      for (std::size_t b = 1; b < p.blockers.size(); ++b)
        EXPECT_GE(p.blockers[b - 1].workloads, p.blockers[b].workloads);
      // Rebuilding more never frees less, and never more than is blocked.
      for (std::size_t f = 1; f < p.freed.size(); ++f) {
        EXPECT_GE(p.freed[f].workloads, p.freed[f - 1].workloads);
        EXPECT_GE(p.freed[f].replicas, p.freed[f - 1].replicas);
      }
      for (const report::Freed& f : p.freed)
        EXPECT_LE(f.workloads, blocked);
    }
  }
}

}  // namespace
}  // namespace archfit::readiness
