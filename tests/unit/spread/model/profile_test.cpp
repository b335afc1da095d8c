// PodDistributor objects read as the webhook reads them, and refused with the
// value at fault placed.
#include <gtest/gtest.h>

#include <archfit/base/error.hpp>
#include <archfit/spread/model/distributor.hpp>
#include <archfit/spread/model/profile.hpp>
#include <archfit/yaml/parse.hpp>

namespace archfit::spread {
namespace {

std::optional<Distributor> distributor_of(const std::string& text) {
  yaml::Tree tree = yaml::parse_document(text);
  return read_distributor(tree.root());
}

std::string error_of(const std::string& text) {
  try {
    distributor_of(text);
  } catch (const Error& e) {
    return std::to_string(e.where().line) + ":" + std::to_string(e.where().column) + ": " +
           e.message();
  }
  return "no error";
}

TEST(Distributor, ReadsTheExample) {
  auto d = distributor_of(R"(apiVersion: versprei.versprei.io/v1beta1
kind: PodDistributor
metadata: {name: web, namespace: shop}
spec:
  distribution:
  - {nodeLabel: type=default, weight: 80}
  - {nodeLabel: type=spot, weight: 20}
  target: {apiVersion: apps/v1, kind: Deployment, name: web}
)");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->name, "web");
  EXPECT_EQ(d->namespace_name, "shop");
  EXPECT_EQ(d->target_kind, "Deployment");
  ASSERT_EQ(d->groups.size(), 2u);
  EXPECT_EQ(d->groups[1].label_key, "type");
  EXPECT_EQ(d->groups[1].label_value, "spot");
  EXPECT_EQ(d->groups[0].share.weight, 80u);
  EXPECT_EQ(d->groups[0].share.base, 0u);
  EXPECT_FALSE(
      distributor_of("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: PodDistributor}\n"));
}

// The versprei CRD writes nodeLabel as a mapping; both forms read the same.
TEST(Distributor, NodeLabelAsTheCrdWritesIt) {
  auto mapping = distributor_of(R"(apiVersion: versprei.versprei.io/v1beta1
kind: PodDistributor
metadata: {name: web}
spec:
  distribution:
  - nodeLabel: {type: default}
    weight: 80
  - nodeLabel:
      karpenter.sh/capacity-type: spot
    weight: 20
  target: {apiVersion: apps/v1, kind: Deployment, name: web}
)");
  ASSERT_TRUE(mapping);
  ASSERT_EQ(mapping->groups.size(), 2u);
  EXPECT_EQ(mapping->groups[0].label_key, "type");
  EXPECT_EQ(mapping->groups[0].label_value, "default");
  EXPECT_EQ(mapping->groups[1].label_key, "karpenter.sh/capacity-type");
  EXPECT_EQ(mapping->groups[1].label_value, "spot");
  EXPECT_EQ(mapping->groups[1].share.weight, 20u);
}

TEST(Distributor, BadFieldsAreErrorsAtTheirPlace) {
  const std::string head =
      "apiVersion: versprei.versprei.io/v1beta1\nkind: PodDistributor\nspec:\n";
  EXPECT_EQ(
      error_of(head + "  target: {name: web}\n  distribution:\n  - {nodeLabel: spot, weight: 1}\n"),
      "6:17: nodeLabel must read {key: value} or key=value, e.g. {type: spot}; it reads \"spot\"");
  EXPECT_EQ(
      error_of(
          head +
          "  target: {name: web}\n  distribution:\n  - {nodeLabel: {a: b, c: d}, weight: 1}\n"),
      "6:17: nodeLabel names one label, e.g. {type: spot}; it names 2");
  EXPECT_EQ(
      error_of(head + "  target: {name: web}\n  distribution:\n  - {nodeLabel: a=b, weight: -1}\n"),
      "6:30: weight must be an integer from 0 to 1000000");
  EXPECT_EQ(error_of(head + "  target: {kind: Deployment}\n  distribution: []\n"),
            "4:11: a PodDistributor needs spec.target.name");
  EXPECT_EQ(error_of(head + "  target: {name: web}\n  distribution: []\n"),
            "5:17: a PodDistributor needs spec.distribution, a list of {nodeLabel, weight}");
}

}  // namespace
}  // namespace archfit::spread
