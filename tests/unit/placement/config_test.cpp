// The configuration's defaults, their completion for the cluster's
// architectures, and label selectors.
#include <gtest/gtest.h>

#include <archfit/placement/config.hpp>
#include <archfit/resolve/settings.hpp>

namespace archfit::placement {
namespace {

using Labels = std::vector<std::pair<std::string, std::string>>;

const Toleration kArm64Taint{"kubernetes.io/arch", "Equal", "arm64", "NoSchedule", std::nullopt};

TEST(Config, DefaultsAreDesignSection4) {
  Config c = Config::defaults();
  EXPECT_EQ(c.cluster_platforms.str(), "linux/amd64,linux/arm64");
  EXPECT_EQ(c.mode, Mode::Affinity);
  EXPECT_TRUE(c.preferred_weights.empty());
  EXPECT_TRUE(c.respect_existing);
  EXPECT_TRUE(c.annotate);
  EXPECT_TRUE(c.namespaces_include.empty());
  EXPECT_TRUE(c.namespaces_exclude.empty());
  EXPECT_TRUE(c.selector.empty());
  EXPECT_EQ(c.opt_out_annotation, "archfit.io/skip");
  EXPECT_NE(c.kinds.find("apps/v1", "Deployment"), nullptr);
  EXPECT_NE(c.kinds.find("argoproj.io/v1alpha1", "Rollout"), nullptr);
  EXPECT_EQ(c.on_unresolved, OnUnresolved::Warn);
  EXPECT_TRUE(c.fallback_platforms.empty());
  resolve::Settings r;
  EXPECT_EQ(r.concurrency, 16);
  EXPECT_EQ(r.timeout, std::chrono::seconds(30));
  EXPECT_EQ(r.tag_ttl.at("IfNotPresent"), std::chrono::hours(24 * 7));
  EXPECT_EQ(r.tag_ttl.at("Always"), std::chrono::seconds(0));
  EXPECT_EQ(r.tag_ttl.at("default"), std::chrono::hours(24));

  ASSERT_EQ(c.architectures.size(), 2u);
  const Architecture& amd64 = c.architectures.at("amd64");
  EXPECT_EQ(amd64.node_labels, (Labels{{"kubernetes.io/arch", "amd64"}}));
  EXPECT_TRUE(amd64.tolerations.empty());
  const Architecture& arm64 = c.architectures.at("arm64");
  EXPECT_EQ(arm64.node_labels, (Labels{{"kubernetes.io/arch", "arm64"}}));
  EXPECT_EQ(arm64.tolerations, std::vector<Toleration>{kArm64Taint});
}

TEST(Config, CompleteAddsOnlyMissingArchitectures) {
  Config c;
  c.cluster_platforms = image::PlatformSet::parse("linux/amd64,linux/arm/v7,linux/s390x");
  Architecture custom;
  custom.node_labels = {{"example.com/cpu", "z"}};  // and no tolerations: kept as given
  c.architectures["s390x"] = custom;
  c.complete();
  ASSERT_EQ(c.architectures.size(), 3u);
  EXPECT_EQ(c.architectures.at("s390x").node_labels, custom.node_labels);
  EXPECT_TRUE(c.architectures.at("s390x").tolerations.empty());
  EXPECT_EQ(c.architectures.at("arm").tolerations,
            (std::vector<Toleration>{{"kubernetes.io/arch", "Equal", "arm", "NoSchedule", {}}}));
  EXPECT_TRUE(c.architectures.at("amd64").tolerations.empty());
}

struct SelectorCase {
  const char* name;
  LabelSelector selector;
  Labels labels;
  bool matches;
};

class SelectorMatches : public ::testing::TestWithParam<SelectorCase> {};

TEST_P(SelectorMatches, AsKubernetesDoes) {
  EXPECT_EQ(GetParam().selector.matches(GetParam().labels), GetParam().matches);
}

using Req = LabelSelector::Requirement;
const Labels kWeb = {{"app", "web"}, {"tier", "front"}};

INSTANTIATE_TEST_SUITE_P(
    Table, SelectorMatches,
    ::testing::Values(
        SelectorCase{"EmptyMatchesAll", {}, kWeb, true},
        SelectorCase{"EmptyMatchesNoLabels", {}, {}, true},
        SelectorCase{"LabelsEqual", {{{"app", "web"}}, {}}, kWeb, true},
        SelectorCase{"LabelsDiffer", {{{"app", "db"}}, {}}, kWeb, false},
        SelectorCase{"LabelsAllNeeded", {{{"app", "web"}, {"env", "prod"}}, {}}, kWeb, false},
        SelectorCase{"InListed", {{}, {Req{"tier", "In", {"back", "front"}}}}, kWeb, true},
        SelectorCase{"InNotListed", {{}, {Req{"tier", "In", {"back"}}}}, kWeb, false},
        SelectorCase{"InAbsent", {{}, {Req{"env", "In", {"prod"}}}}, kWeb, false},
        SelectorCase{"NotInAbsent", {{}, {Req{"env", "NotIn", {"prod"}}}}, kWeb, true},
        SelectorCase{"NotInListed", {{}, {Req{"app", "NotIn", {"web"}}}}, kWeb, false},
        SelectorCase{"Exists", {{}, {Req{"app", "Exists", {}}}}, kWeb, true},
        SelectorCase{"ExistsAbsent", {{}, {Req{"env", "Exists", {}}}}, kWeb, false},
        SelectorCase{"DoesNotExist", {{}, {Req{"env", "DoesNotExist", {}}}}, kWeb, true},
        SelectorCase{"DoesNotExistPresent", {{}, {Req{"app", "DoesNotExist", {}}}}, kWeb, false},
        SelectorCase{"AllRequirementsAnded",
                     {{{"app", "web"}}, {Req{"tier", "In", {"front"}}, Req{"env", "Exists", {}}}},
                     kWeb,
                     false}),
    [](const ::testing::TestParamInfo<SelectorCase>& test) {
      return std::string(test.param.name);
    });

}  // namespace
}  // namespace archfit::placement
