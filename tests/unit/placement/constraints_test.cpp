// Writing "only these platforms" into a pod spec by adding to it: which
// requirements say a platform set, where they go, and what respectExisting:
// false takes out.
#include <gtest/gtest.h>

#include "placement/constraints.hpp"
#include "placement/view.hpp"
#include "unit/placement/placement_support.hpp"

namespace archfit::placement {
namespace {

using detail::Draft;
using detail::NodeModel;
using testing::data;

image::PlatformSet set(const char* platforms) {
  return image::PlatformSet::parse(platforms);
}

Config cluster(const char* platforms) {
  Config c = Config::defaults();
  c.cluster_platforms = set(platforms);
  c.complete();
  return c;
}

std::string alternatives(const detail::Alternatives& alts) {
  std::string out;
  for (const auto& alt : alts) {
    if (!out.empty()) out += " | ";
    std::string one;
    for (const yaml::Value& e : alt)
      one += (one.empty() ? "" : ", ") + yaml::to_json(e);
    out += one;
  }
  return out;
}

struct Requirements {
  const char* name;
  const char* cluster;
  const char* S;
  const char* expected;
};

class RequirementsFor : public ::testing::TestWithParam<Requirements> {};

TEST_P(RequirementsFor, SayExactlyThePlatformSet) {
  Config c = cluster(GetParam().cluster);
  NodeModel nodes(c);
  EXPECT_EQ(alternatives(detail::requirements_for(set(GetParam().S), nodes)), GetParam().expected);
}

INSTANTIATE_TEST_SUITE_P(
    Clusters, RequirementsFor,
    ::testing::Values(
        Requirements{"one_os", "linux/amd64,linux/arm64", "linux/amd64",
                     R"({"key":"kubernetes.io/arch","operator":"In","values":["amd64"]})"},
        Requirements{"two_archs", "linux/amd64,linux/arm64,linux/s390x", "linux/amd64,linux/arm64",
                     R"({"key":"kubernetes.io/arch","operator":"In","values":["amd64","arm64"]})"},
        Requirements{"two_oses_rectangle", "linux/amd64,windows/amd64,linux/arm64",
                     "linux/amd64,windows/amd64",
                     R"({"key":"kubernetes.io/arch","operator":"In","values":["amd64"]}, )"
                     R"({"key":"kubernetes.io/os","operator":"In","values":["linux","windows"]})"},
        Requirements{"two_oses_not_a_rectangle", "linux/amd64,linux/arm64,windows/amd64",
                     "linux/arm64,windows/amd64",
                     R"({"key":"kubernetes.io/os","operator":"In","values":["linux"]}, )"
                     R"({"key":"kubernetes.io/arch","operator":"In","values":["arm64"]} | )"
                     R"({"key":"kubernetes.io/os","operator":"In","values":["windows"]}, )"
                     R"({"key":"kubernetes.io/arch","operator":"In","values":["amd64"]})"}),
    [](const auto& row) { return std::string(row.param.name); });

// Runs restrict_to on a pod spec and returns the spec fields afterwards.
yaml::Value restricted(const char* spec, const char* S, Mode mode = Mode::Affinity,
                       const char* platforms = "linux/amd64,linux/arm64") {
  Config c = cluster(platforms);
  NodeModel nodes(c);
  Draft d(data(std::string("spec: ") + spec + "\n"));
  detail::restrict_to(d, set(S), nodes, mode);
  return *d.view().find("spec");
}

TEST(RestrictTo, WithoutTermsAddsOneTerm) {
  EXPECT_EQ(restricted("{}", "linux/amd64"),
            data("affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
                 "{nodeSelectorTerms: [{matchExpressions: [{key: kubernetes.io/arch, operator: In, "
                 "values: [amd64]}]}]}}}"));
}

TEST(RestrictTo, NodeSelectorModeWithOneArchitectureWritesANodeSelector) {
  EXPECT_EQ(restricted("{nodeSelector: {disk: ssd}}", "linux/arm64", Mode::NodeSelector),
            data("nodeSelector: {disk: ssd, kubernetes.io/arch: arm64}"));
  // Two architectures cannot be said with a nodeSelector: affinity it is.
  yaml::Value two = restricted("{}", "linux/amd64,linux/arm64", Mode::NodeSelector,
                               "linux/amd64,linux/arm64,linux/s390x");
  EXPECT_NE(two.find("affinity"), nullptr);
  EXPECT_EQ(two.find("nodeSelector"), nullptr);
}

TEST(RestrictTo, AndsIntoEveryTermThatAllowsTooMuchAndLeavesTheUsersText) {
  yaml::Value spec = restricted(
      "{affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: ["
      "{matchExpressions: [{key: kubernetes.io/arch, operator: In, values: [amd64, arm64]}]},"
      "{matchExpressions: [{key: kubernetes.io/arch, operator: In, values: [amd64]}]},"
      "{matchFields: [{key: metadata.name, operator: In, values: [n1]}]}]}}}}",
      "linux/amd64");
  const yaml::Value& terms = *spec.find("affinity")->find("nodeAffinity")->find(
      "requiredDuringSchedulingIgnoredDuringExecution")->find("nodeSelectorTerms");
  const yaml::Value mine = data("{key: kubernetes.io/arch, operator: In, values: [amd64]}");
  // The user's own expression is still there, archfit's is ANDed after it.
  EXPECT_EQ(terms.items()[0],
            data("{matchExpressions: [{key: kubernetes.io/arch, operator: In, values: [amd64, "
                 "arm64]}, {key: kubernetes.io/arch, operator: In, values: [amd64]}]}"));
  // A term that already allows only supported platforms is left as it is.
  EXPECT_EQ(terms.items()[1].find("matchExpressions")->items().size(), 1u);
  // A matchFields-only term gets matchExpressions of its own.
  EXPECT_EQ(*terms.items()[2].find("matchExpressions"), yaml::Value::sequence({mine}));
  EXPECT_EQ(terms.items().size(), 3u);
}

TEST(RestrictTo, AFurtherAlternativeGetsACopyOfTheTerm) {
  yaml::Value spec = restricted(
      "{affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: ["
      "{matchExpressions: [{key: zone, operator: In, values: [a]}]}]}}}}",
      "linux/arm64,windows/amd64", Mode::Affinity, "linux/amd64,linux/arm64,windows/amd64");
  const yaml::Value& terms = *spec.find("affinity")->find("nodeAffinity")->find(
      "requiredDuringSchedulingIgnoredDuringExecution")->find("nodeSelectorTerms");
  ASSERT_EQ(terms.items().size(), 2u);
  EXPECT_EQ(terms.items()[0].find("matchExpressions")->items().size(), 3u);
  EXPECT_EQ(terms.items()[1],
            data("{matchExpressions: [{key: zone, operator: In, values: [a]}, "
                 "{key: kubernetes.io/os, operator: In, values: [windows]}, "
                 "{key: kubernetes.io/arch, operator: In, values: [amd64]}]}"));
}

TEST(AddPreferences, OnePerWeightedArchitectureNotYetPreferred) {
  Config c = cluster("linux/amd64,linux/arm64");
  c.preferred_weights = {{"arm64", 80}, {"amd64", 20}};
  NodeModel nodes(c);
  Draft d(data(
      "spec: {affinity: {nodeAffinity: {preferredDuringSchedulingIgnoredDuringExecution: "
      "[{weight: 5, preference: {matchExpressions: [{key: kubernetes.io/arch, operator: In, values: "
      "[arm64]}]}}]}}}"));
  detail::add_preferences(d, set("linux/amd64,linux/arm64"), nodes);
  const yaml::Value& preferred = *d.view().find("spec")->find("affinity")->find("nodeAffinity")->find(
      "preferredDuringSchedulingIgnoredDuringExecution");
  ASSERT_EQ(preferred.items().size(), 2u);
  EXPECT_EQ(preferred.items()[1],
            data("{weight: 20, preference: {matchExpressions: [{key: kubernetes.io/arch, operator: "
                 "In, values: [amd64]}]}}"));
  // One architecture left: nothing to prefer.
  Draft one(data("spec: {}"));
  detail::add_preferences(one, set("linux/amd64"), nodes);
  EXPECT_FALSE(one.changed());
}

TEST(AddTolerations, OnlyWhatIsNotToleratedYet) {
  Config c = cluster("linux/amd64,linux/arm64");
  Draft covered(data("spec: {tolerations: [{operator: Exists}]}"));
  EXPECT_TRUE(detail::add_tolerations(covered, {"amd64", "arm64"}, c).empty());
  Draft d(data("spec: {tolerations: [{key: kubernetes.io/arch, operator: Exists, effect: NoExecute}]}"));
  std::vector<Toleration> added = detail::add_tolerations(d, {"amd64", "arm64"}, c);
  ASSERT_EQ(added.size(), 1u);
  EXPECT_EQ(added[0].value, "arm64");
  EXPECT_EQ(d.view().find("spec")->find("tolerations")->items().size(), 2u);
}

TEST(TakeArchConstraints, EntriesTermsAndWholeFields) {
  Config c = cluster("linux/amd64,linux/arm64");
  NodeModel nodes(c);
  auto index = [](const std::string&) { return std::size_t{3}; };
  // Only the architecture entry of the nodeSelector goes.
  Draft a(data("spec: {nodeSelector: {kubernetes.io/os: linux, kubernetes.io/arch: amd64}}"));
  detail::take_arch_constraints(a, nodes, index);
  EXPECT_EQ(*a.view().find("spec")->find("nodeSelector"), data("{kubernetes.io/os: linux}"));
  EXPECT_EQ(a.ownership().str(), "-spec.nodeSelector[\"kubernetes.io/arch\"]@1=\"amd64\"");
  // A nodeSelector of only architecture goes whole, with its place in the spec.
  Draft b(data("spec: {nodeSelector: {beta.kubernetes.io/arch: amd64}}"));
  detail::take_arch_constraints(b, nodes, index);
  EXPECT_EQ(b.view().find("spec")->find("nodeSelector"), nullptr);
  EXPECT_EQ(b.ownership().str(), "-spec.nodeSelector@3={\"beta.kubernetes.io/arch\":\"amd64\"}");
  // Affinity whose only term is about architecture goes whole; a term with
  // more keeps the rest.
  Draft d(data(
      "spec: {affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: ["
      "{matchExpressions: [{key: kubernetes.io/arch, operator: In, values: [amd64]}, {key: zone, operator: Exists}]},"
      "{matchExpressions: [{key: kubernetes.io/arch, operator: NotIn, values: [arm64]}]}]}}}}"));
  detail::take_arch_constraints(d, nodes, index);
  EXPECT_EQ(*d.view().find("spec")->find("affinity"),
            data("{nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: "
                 "[{matchExpressions: [{key: zone, operator: Exists}]}]}}}"));
  Draft e(data(
      "spec: {affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: ["
      "{matchExpressions: [{key: kubernetes.io/arch, operator: In, values: [amd64]}]}]}}}}"));
  detail::take_arch_constraints(e, nodes, index);
  EXPECT_EQ(e.view().find("spec")->find("affinity"), nullptr);
}

}  // namespace
}  // namespace archfit::placement
