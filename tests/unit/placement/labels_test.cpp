// Which cluster platforms a pod's own constraints allow, and which keys the
// node model knows.
#include <gtest/gtest.h>

#include "placement/labels.hpp"
#include "unit/placement/placement_support.hpp"

namespace archfit::placement {
namespace {

using detail::NodeModel;
using testing::data;

Config three() {
  Config c = Config::defaults();
  c.cluster_platforms = image::PlatformSet::parse("linux/amd64,linux/arm64,windows/amd64");
  c.architectures["arm64"].node_labels = {{"cloud.example.com/pool", "graviton"}};
  c.complete();
  return c;
}

struct Allowed {
  const char* name;
  const char* node_selector;
  const char* affinity;
  const char* expected;
};

class NodeModelAllows : public ::testing::TestWithParam<Allowed> {};

TEST_P(NodeModelAllows, ThePlatformsTheConstraintsLetThrough) {
  Config c = three();
  NodeModel nodes(c);
  yaml::Value selector = *GetParam().node_selector ? data(GetParam().node_selector) : yaml::Value();
  yaml::Value affinity = *GetParam().affinity ? data(GetParam().affinity) : yaml::Value();
  EXPECT_EQ(nodes.allowed(selector, affinity).str(), GetParam().expected);
}

#define TERMS(t) "{nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: " t "}}}"

INSTANTIATE_TEST_SUITE_P(
    Constraints, NodeModelAllows,
    ::testing::Values(
        Allowed{"nothing", "", "", "linux/amd64,linux/arm64,windows/amd64"},
        Allowed{"arch_selector", "{kubernetes.io/arch: amd64}", "", "linux/amd64,windows/amd64"},
        Allowed{"os_and_arch", "{kubernetes.io/os: linux, beta.kubernetes.io/arch: amd64}", "",
                "linux/amd64"},
        Allowed{"unknown_key", "{disk: ssd}", "", "linux/amd64,linux/arm64,windows/amd64"},
        Allowed{"custom_label", "{cloud.example.com/pool: graviton}", "", "linux/arm64"},
        Allowed{"in", "", TERMS("[{matchExpressions: [{key: kubernetes.io/arch, operator: In, values: [arm64]}]}]"),
                "linux/arm64"},
        Allowed{"not_in", "", TERMS("[{matchExpressions: [{key: kubernetes.io/os, operator: NotIn, values: [windows]}]}]"),
                "linux/amd64,linux/arm64"},
        Allowed{"exists_custom", "", TERMS("[{matchExpressions: [{key: cloud.example.com/pool, operator: Exists}]}]"),
                "linux/arm64"},
        Allowed{"does_not_exist_custom", "",
                TERMS("[{matchExpressions: [{key: cloud.example.com/pool, operator: DoesNotExist}]}]"),
                "linux/amd64,windows/amd64"},
        Allowed{"terms_are_ored", "",
                TERMS("[{matchExpressions: [{key: kubernetes.io/arch, operator: In, values: [arm64]}]},"
                      "{matchExpressions: [{key: kubernetes.io/os, operator: In, values: [windows]}]}]"),
                "linux/arm64,windows/amd64"},
        Allowed{"expressions_are_anded", "",
                TERMS("[{matchExpressions: [{key: kubernetes.io/arch, operator: In, values: [amd64]},"
                      "{key: kubernetes.io/os, operator: In, values: [linux]}]}]"),
                "linux/amd64"},
        Allowed{"selector_and_affinity", "{kubernetes.io/os: linux}",
                TERMS("[{matchExpressions: [{key: kubernetes.io/arch, operator: In, values: [amd64]}]}]"),
                "linux/amd64"},
        Allowed{"empty_term_matches_nothing", "", TERMS("[{}]"), ""},
        Allowed{"match_fields_say_nothing_about_platforms", "",
                TERMS("[{matchFields: [{key: metadata.name, operator: In, values: [n]}]}]"),
                "linux/amd64,linux/arm64,windows/amd64"}),
    [](const auto& row) { return std::string(row.param.name); });

#undef TERMS

TEST(NodeModel, KnowsPlatformKeysAndTellsArchitectureKeysApart) {
  Config c = three();
  NodeModel nodes(c);
  for (const char* key : {"kubernetes.io/arch", "beta.kubernetes.io/arch", "cloud.example.com/pool"}) {
    EXPECT_TRUE(nodes.knows(key)) << key;
    EXPECT_TRUE(nodes.tells_arch(key)) << key;
  }
  for (const char* key : {"kubernetes.io/os", "beta.kubernetes.io/os"}) {
    EXPECT_TRUE(nodes.knows(key)) << key;
    EXPECT_FALSE(nodes.tells_arch(key)) << key;
  }
  EXPECT_FALSE(nodes.knows("topology.kubernetes.io/zone"));
  EXPECT_EQ(nodes.label(image::Platform::parse("linux/arm64"), "cloud.example.com/pool"), "graviton");
  EXPECT_EQ(nodes.label(image::Platform::parse("linux/amd64"), "cloud.example.com/pool"), "");
}

}  // namespace
}  // namespace archfit::placement
