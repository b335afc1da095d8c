// Undoing a record on the data of a template: what archfit wrote goes (when
// unchanged), what it created goes when empty, nulls and taken values come
// back; what was changed by hand stays, and is named.
#include <gtest/gtest.h>

#include "placement/draft.hpp"
#include "placement/view.hpp"
#include "unit/placement/placement_support.hpp"

namespace archfit::placement {
namespace {

using detail::Draft;
using testing::data;

Path path(std::initializer_list<PathStep> steps) {
  return Path(steps);
}
PathStep k(const char* key) {
  return PathStep::of(key);
}
std::string hex(const yaml::Value& v) {
  char out[9];
  std::snprintf(out, sizeof out, "%08x", data_hash(v));
  return out;
}

// Draft operations and their undo are inverses on the data.
TEST(Undo, GivesBackWhatTheDraftChanged) {
  const yaml::Value user = data(
      "metadata: {labels: {app: a}}\n"
      "spec:\n"
      "  nodeSelector: {kubernetes.io/arch: amd64, disk: ssd}\n"
      "  affinity: ~\n"
      "  tolerations: [{key: a, operator: Exists}]\n");
  Draft d(user);
  d.take(path({k("spec"), k("nodeSelector"), k("kubernetes.io/arch")}), 0);
  d.append(path({k("spec"), k("tolerations")}), data("{key: b, operator: Exists}"));
  d.append(path({k("spec"), k("affinity"), k("nodeAffinity"),
                 k("requiredDuringSchedulingIgnoredDuringExecution"), k("nodeSelectorTerms")}),
           data("{matchExpressions: [{key: kubernetes.io/arch, operator: In, values: [arm64]}]}"));
  d.add_annotation("archfit.io/platforms", yaml::Value::string("linux/arm64"));
  Ownership record = d.ownership();
  EXPECT_EQ(record.str(),
            "+metadata.annotations, spec.affinity=~, +spec.affinity.nodeAffinity, "
            "spec.affinity.nodeAffinity.required#b2b0fc2c, "
            "-spec.nodeSelector[\"kubernetes.io/arch\"]@0=\"amd64\", spec.tolerations[1]#" +
                hex(data("{key: b, operator: Exists}")));

  detail::Undone undone = detail::undo(d.view(), record);
  EXPECT_TRUE(undone.kept.empty());
  EXPECT_EQ(undone.view, user) << yaml::to_json(undone.view);
  // The null comes back as it was written.
  EXPECT_EQ(undone.view.find("spec")->find("affinity")->null_text().value_or("?"), "~");
  // The nodeSelector entry comes back in its place.
  EXPECT_EQ(undone.view.find("spec")->find("nodeSelector")->entries()[0].first,
            "kubernetes.io/arch");
}

TEST(Undo, WhatWasChangedByHandStaysAndIsNamed) {
  Draft d(data("spec: {}\n"));
  d.append(path({k("spec"), k("tolerations")}), data("{key: b, operator: Exists}"));
  yaml::Value fixed = d.view();
  Ownership record = d.ownership();
  // The user edits archfit's toleration and adds one of their own.
  fixed.find("spec")->find("tolerations")->items()[0] = data("{key: b, operator: Exists, effect: NoSchedule}");
  fixed.find("spec")->find("tolerations")->items().push_back(data("{key: c}"));
  detail::Undone undone = detail::undo(fixed, record);
  ASSERT_EQ(undone.kept.size(), 1u);
  EXPECT_EQ(undone.kept[0], "spec.tolerations[0]");
  EXPECT_EQ(undone.view.find("spec")->find("tolerations")->items().size(), 2u);
}

TEST(Undo, FindsAnItemOfArchfitsThatMoved) {
  Draft d(data("spec: {tolerations: [{key: a}]}\n"));
  d.append(path({k("spec"), k("tolerations")}), data("{key: mine}"));
  yaml::Value fixed = d.view();
  // A tool put an item before archfit's.
  auto& items = fixed.find("spec")->find("tolerations")->items();
  items.insert(items.begin(), data("{key: z}"));
  detail::Undone undone = detail::undo(fixed, d.ownership());
  EXPECT_TRUE(undone.kept.empty());
  EXPECT_EQ(*undone.view.find("spec")->find("tolerations"), data("[{key: z}, {key: a}]"));
}

TEST(Undo, ASpecFieldTakenOutComesBackWithItsPlace) {
  Draft d(data("spec: {nodeSelector: {kubernetes.io/arch: amd64}}\n"));
  d.take(path({k("spec"), k("nodeSelector")}), 4);
  detail::Undone undone = detail::undo(d.view(), d.ownership());
  ASSERT_EQ(undone.positions.size(), 1u);
  EXPECT_EQ(undone.positions[0].first, "nodeSelector");
  EXPECT_EQ(undone.positions[0].second, 4u);
  EXPECT_NE(undone.view.find("spec")->find("nodeSelector"), nullptr);
}

TEST(Undo, AnEarlierArchfitsAnnotationAloneTakesItsEmptyContainersWithIt) {
  detail::Undone undone =
      detail::undo(data("metadata: {annotations: {archfit.io/platforms: linux/amd64}}\nspec: {}\n"),
                   Ownership{});
  EXPECT_EQ(undone.view, data("spec: {}\n"));
  detail::Undone kept = detail::undo(
      data("metadata: {annotations: {archfit.io/platforms: x, team: a}}\nspec: {}\n"), Ownership{});
  EXPECT_EQ(kept.view, data("metadata: {annotations: {team: a}}\nspec: {}\n"));
}

TEST(Draft, WritesIntoWhatItCreatedAreOneValue) {
  Draft d(data("spec: {affinity: {podAntiAffinity: {}}}\n"));
  Path terms = path({k("spec"), k("affinity"), k("nodeAffinity"),
                     k("requiredDuringSchedulingIgnoredDuringExecution"), k("nodeSelectorTerms")});
  d.append(terms, data("{matchExpressions: [{key: a, operator: Exists}]}"));
  d.append(terms, data("{matchExpressions: [{key: b, operator: Exists}]}"));
  // nodeAffinity is a container users add to; required is archfit's whole.
  EXPECT_EQ(d.ownership().str(),
            "+spec.affinity.nodeAffinity, spec.affinity.nodeAffinity.required#" +
                hex(data("{nodeSelectorTerms: [{matchExpressions: [{key: a, operator: Exists}]}, "
                         "{matchExpressions: [{key: b, operator: Exists}]}]}")));
}

TEST(ChangesBetween, OneChangePerFieldAndMetadataWhole) {
  yaml::Value from = data("spec: {tolerations: [a]}\n");
  yaml::Value to = data("metadata: {annotations: {x: y}}\nspec: {affinity: {b: c}}\n");
  std::vector<yaml::FieldChange> changes = detail::changes_between(from, to, {{"affinity", 2}});
  ASSERT_EQ(changes.size(), 3u);
  EXPECT_EQ(changes[0].path, (std::vector<std::string>{"metadata"}));
  EXPECT_EQ(changes[1].path, (std::vector<std::string>{"spec", "affinity"}));
  EXPECT_EQ(changes[1].position.value_or(99), 2u);
  EXPECT_EQ(changes[2].path, (std::vector<std::string>{"spec", "tolerations"}));
  EXPECT_TRUE(changes[2].remove);
  EXPECT_TRUE(detail::changes_between(to, to).empty());
}

}  // namespace
}  // namespace archfit::placement
