// A set of pools answers as asking each pool would, however it arranges them
// (classes, remembered answers, the index of labels), and within a budget.
#include <random>

#include <gtest/gtest.h>

#include <archfit/nodepools/model/pool_set.hpp>

namespace archfit::nodepools {
namespace {

// Pools and needs over a few keys and values, so that classes, the label
// index and pool names all come into play.
class Generator {
 public:
  explicit Generator(unsigned seed) : random_(seed) {}

  Pool pool(std::size_t i) {
    Pool p;
    p.name = "p" + std::to_string(pick(0, 5));  // names repeat: classes by name matter
    p.file = "pools.yaml";
    p.line = static_cast<std::uint32_t>(i + 1);
    switch (pick(0, 2)) {
      case 0:
        p.source = PoolSource::NodePool;
        p.api_version = "karpenter.sh/v1";
        p.kind = "NodePool";
        break;
      case 1:
        p.source = PoolSource::Declared;
        break;
      default:
        p.source = PoolSource::NodeGroup;
        p.instance_types = {pick(0, 1) ? "m7g.large" : "m6i.large"};
        p.instance_archs = {p.instance_types[0] == "m7g.large" ? "arm64" : "amd64"};
        break;
    }
    for (int n = pick(0, 2); n > 0; --n)
      p.labels.emplace_back(key(), value());
    for (int n = pick(0, 2); n > 0; --n)
      p.requirements.push_back(requirement());
    if (pick(0, 2) == 0)
      p.taints.push_back(Taint{"kubernetes.io/arch", pick(0, 1) ? "arm64" : "amd64", "NoSchedule"});
    if (pick(0, 3) == 0) p.taints.push_back(Taint{"dedicated", value(), "NoSchedule"});
    return p;
  }

  PodNeeds needs() {
    PodNeeds n;
    for (int k = pick(0, 2); k > 0; --k)
      n.node_selector.emplace_back(key(), value());
    for (int t = pick(0, 2); t > 0; --t) {
      std::vector<Requirement> term;
      for (int r = pick(1, 2); r > 0; --r)
        term.push_back(requirement());
      n.terms.push_back(Term{std::move(term), {}, {}, {}});
    }
    if (pick(0, 1)) n.tolerations.push_back(Toleration{"kubernetes.io/arch", "Exists", "", ""});
    if (pick(0, 3) == 0) n.tolerations.push_back(Toleration{"dedicated", "Equal", value(), ""});
    if (pick(0, 1)) n.archs = std::set<std::string>{pick(0, 1) ? "arm64" : "amd64"};
    return n;
  }

 private:
  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(random_); }
  std::string key() {
    static const char* keys[] = {"team",
                                 "tier",
                                 "kubernetes.io/arch",
                                 "karpenter.sh/nodepool",
                                 "topology.kubernetes.io/zone",
                                 "karpenter.sh/capacity-type"};
    return keys[pick(0, 5)];
  }
  std::string value() {
    static const char* values[] = {"a", "b", "arm64", "amd64", "p1", "spot"};
    return values[pick(0, 5)];
  }
  Requirement requirement() {
    static const Operator ops[] = {Operator::In, Operator::NotIn, Operator::Exists,
                                   Operator::DoesNotExist};
    Requirement r{key(), ops[pick(0, 3)], {}};
    if (r.op == Operator::In || r.op == Operator::NotIn) {
      for (int v = pick(1, 2); v > 0; --v)
        r.values.push_back(value());
    }
    return r;
  }
  std::mt19937 random_;
};

TEST(PoolSet, AnswersAsAskingEveryPoolWould) {
  Generator g(11);
  for (int round = 0; round < 300; ++round) {
    std::vector<Pool> pools;
    for (std::size_t i = 0, n = 1 + static_cast<std::size_t>(round % 13); i < n; ++i)
      pools.push_back(g.pool(i));
    std::vector<const Pool*> all;
    for (const Pool& p : pools)
      all.push_back(&p);
    PoolSet set(all);
    WorkBudget budget(std::uint64_t{1} << 40);
    for (int q = 0; q < 20; ++q) {
      PodNeeds needs = g.needs();
      bool fits = false;
      std::string reasons;
      for (std::size_t i = 0; i < pools.size(); ++i) {
        std::optional<std::string> why = why_not(needs, pools[i]);
        fits = fits || !why;
        if (why && i < PoolSet::kNamed) {
          reasons += (reasons.empty() ? "" : "; ") + pools[i].title() + ": " + *why;
        }
      }
      if (pools.size() > PoolSet::kNamed)
        reasons += "; and " + std::to_string(pools.size() - PoolSet::kNamed) + " more pools";
      // Asked twice: the second answer is the remembered one.
      for (int twice = 0; twice < 2; ++twice) {
        PoolSet::Answer a = set.check(needs, budget);
        ASSERT_TRUE(a.checked);
        ASSERT_EQ(a.fits, fits) << "round " << round << ", question " << q;
        if (!fits) {
          ASSERT_EQ(a.reasons, reasons);
        }
      }
    }
  }
}

TEST(PoolSet, PoolsThatDifferOnlyInNameAreOneClass) {
  std::vector<Pool> pools(50);
  std::vector<const Pool*> all;
  for (std::size_t i = 0; i < pools.size(); ++i) {
    pools[i].name = "pool" + std::to_string(i);
    pools[i].source = PoolSource::Declared;
    pools[i].taints.push_back(Taint{"kubernetes.io/arch", "arm64", "NoSchedule"});
    all.push_back(&pools[i]);
  }
  PoolSet set(all);
  EXPECT_EQ(set.size(), 50u);
  EXPECT_EQ(set.classes(), 1u);
  WorkBudget budget(1000);
  PoolSet::Answer a = set.check(PodNeeds{}, budget);
  EXPECT_FALSE(a.fits);
  EXPECT_NE(a.reasons.find("and 40 more pools"), std::string::npos) << a.reasons;
  // A template that selects by pool name asks each pool: the one it names fits.
  PodNeeds named;
  named.node_selector.emplace_back("karpenter.sh/nodepool", "pool7");
  named.tolerations.push_back(Toleration{"", "Exists", "", ""});
  pools[7].source = PoolSource::NodePool;  // only pool7's nodes carry its name
  PoolSet again(all);
  EXPECT_TRUE(again.check(named, budget).fits);
}

TEST(PoolSet, SaysWhenTheBudgetRanOut) {
  std::vector<Pool> pools(100);
  std::vector<const Pool*> all;
  for (std::size_t i = 0; i < pools.size(); ++i) {
    pools[i].name = "pool" + std::to_string(i);
    pools[i].source = PoolSource::Declared;
    pools[i].labels.emplace_back("slot", std::to_string(i));  // every pool its own class
    pools[i].taints.push_back(Taint{"kubernetes.io/arch", "arm64", "NoSchedule"});
    all.push_back(&pools[i]);
  }
  PoolSet set(all);
  WorkBudget budget(50);
  PoolSet::Answer a = set.check(PodNeeds{}, budget);
  EXPECT_FALSE(a.checked);
  EXPECT_TRUE(budget.spent());
  // Nothing is remembered of an answer that was not given.
  WorkBudget more(1000);
  EXPECT_TRUE(set.check(PodNeeds{}, more).checked);
}

TEST(PoolSet, FindsThePoolsOfALabelValueByIndex) {
  // 1,000 pools, each its own team's: a template that selects one team is
  // checked against that team's pool only.
  std::vector<Pool> pools(1000);
  std::vector<const Pool*> all;
  for (std::size_t i = 0; i < pools.size(); ++i) {
    pools[i].name = "pool" + std::to_string(i);
    pools[i].source = PoolSource::Declared;
    pools[i].labels.emplace_back("team", "t" + std::to_string(i));
    all.push_back(&pools[i]);
  }
  PoolSet set(all);
  PodNeeds needs;
  needs.node_selector.emplace_back("team", "t999");
  WorkBudget budget(100);  // far too little to ask every pool
  PoolSet::Answer a = set.check(needs, budget);
  EXPECT_TRUE(a.checked);
  EXPECT_TRUE(a.fits);
  needs.node_selector[0].second = "nobody";
  a = set.check(needs, budget);
  EXPECT_TRUE(a.checked);
  EXPECT_FALSE(a.fits);
}

}  // namespace
}  // namespace archfit::nodepools
