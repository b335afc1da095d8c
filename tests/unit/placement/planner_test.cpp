// Planning one pod template: what fix writes, what lint reports, and that the
// two agree, including for templates archfit placed before.
#include <gtest/gtest.h>

#include "placement/view.hpp"
#include "unit/placement/placement_support.hpp"

namespace archfit::placement {
namespace {

using testing::data;
using testing::deployment;
using testing::Doc;
using testing::Lock;
using testing::plan;
using testing::rules;

const char* kImage = "registry.example.com/app:1";
const std::string kSpec =
    "      containers:\n      - name: app\n        image: registry.example.com/app:1\n";

const findings::Finding& finding(const TemplatePlan& p, const std::string& rule) {
  for (const findings::Finding& f : p.findings) {
    if (f.rule == rule) return f;
  }
  ADD_FAILURE() << "no " << rule << " finding";
  static const findings::Finding none;
  return none;
}

const yaml::Value* spec_field(const yaml::Value& view, const char* name) {
  return view.find("spec")->find(name);
}

TEST(Planner, AnAmd64OnlyImageGetsAffinityAndARecord) {
  Doc doc(deployment(kSpec));
  TemplatePlan p = plan(doc, Lock{{kImage, "linux/amd64"}});
  EXPECT_TRUE(p.changes_template());
  EXPECT_EQ(rules(p), std::vector<std::string>{"missing-arch-affinity+"});
  EXPECT_EQ(
      *spec_field(p.desired, "affinity"),
      data("{nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: "
           "[{matchExpressions: [{key: kubernetes.io/arch, operator: In, values: [amd64]}]}]}}}"));
  const yaml::Value& annotations = *p.desired.find("metadata")->find("annotations");
  EXPECT_EQ(annotations.find("archfit.io/platforms")->as_string(), "linux/amd64");
  EXPECT_EQ(annotations.find("archfit.io/owned")->as_string(),
            "+metadata.annotations, +spec.affinity, +spec.affinity.nodeAffinity, "
            "spec.affinity.nodeAffinity.required#93fedced");
  // The finding proposes exactly what fix writes.
  EXPECT_EQ(finding(p, "missing-arch-affinity").proposed,
            yaml::to_json(*spec_field(p.desired, "affinity")));
  EXPECT_EQ(finding(p, "missing-arch-affinity").current, "");
  EXPECT_FALSE(p.gives_back);
  EXPECT_TRUE(p.removal.empty());
}

// A windows-only image on a linux cluster: the message says the cluster runs
// none of its platforms and what to do, and names each image once.
TEST(Planner, AnImageForPlatformsTheClusterDoesNotRunIsSaidSo) {
  const char* kWindows = "registry.example.com/exporter:1";
  Doc doc(deployment("      containers:\n      - name: a\n        image: " + std::string(kWindows) +
                     "\n      - name: b\n        image: " + std::string(kWindows) + "\n"));
  TemplatePlan p = plan(doc, Lock{{kWindows, "windows/amd64"}});
  const findings::Finding& f = finding(p, "no-common-platform");
  EXPECT_NE(f.message.find("the cluster runs none of the platforms of \"" + std::string(kWindows) +
                           "\": if it has such nodes, add them to clusterPlatforms"),
            std::string::npos)
      << f.message;
  EXPECT_EQ(f.message.find("rebuild"), std::string::npos) << f.message;
  std::size_t first = f.message.find(std::string(kWindows) + "\" supports");
  ASSERT_NE(first, std::string::npos) << f.message;
  EXPECT_EQ(f.message.find(std::string(kWindows) + "\" supports", first + 1), std::string::npos)
      << "named twice: " << f.message;
}

TEST(Planner, AMultiArchImageGetsOnlyTheToleration) {
  Doc doc(deployment(kSpec));
  TemplatePlan p = plan(doc, Lock{{kImage, "linux/amd64,linux/arm64"}});
  EXPECT_EQ(rules(p), std::vector<std::string>{"missing-toleration+"});
  EXPECT_EQ(finding(p, "missing-toleration").severity, findings::Severity::Warning);
  EXPECT_EQ(spec_field(p.desired, "affinity"), nullptr);
  ASSERT_NE(spec_field(p.desired, "tolerations"), nullptr);
}

TEST(Planner, AfterFixNothingChangesAndNothingIsFixable) {
  Doc doc(deployment(kSpec));
  Lock lock{{kImage, "linux/arm64"}};
  TemplatePlan first = plan(doc, lock);
  ASSERT_TRUE(first.changes_template());
  // The view fix writes, as a document, planned again.
  yaml::Value fixed = first.desired;
  // Rebuild the document from the desired view: its spec fields and metadata.
  Doc again(
      "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  template:\n"
      "    metadata: " +
      yaml::to_json(*fixed.find("metadata")) + "\n    spec:\n" + kSpec +
      "      affinity: " + yaml::to_json(*spec_field(fixed, "affinity")) + "\n" +
      "      tolerations: " + yaml::to_json(*spec_field(fixed, "tolerations")) + "\n");
  TemplatePlan second = plan(again, lock);
  EXPECT_FALSE(second.changes_template()) << yaml::to_json(second.desired);
  EXPECT_TRUE(rules(second).empty());
  EXPECT_TRUE(second.has_record);
  // The user's template behind it is the one the first run started from.
  EXPECT_EQ(second.user(), first.user());
  EXPECT_EQ(second.removal.size(), 2u + 1u);  // metadata, affinity, tolerations
  // After the image changes, only stale-placement is fixable, and fix
  // writes what a first run writes.
  TemplatePlan changed = plan(again, Lock{{kImage, "linux/amd64"}});
  EXPECT_EQ(rules(changed), std::vector<std::string>{"stale-placement+"});
  EXPECT_EQ(changed.desired, plan(doc, Lock{{kImage, "linux/amd64"}}).desired);
  // --remove gives the user's template.
  TemplatePlan removed = plan(again, lock, Config::defaults(), Action::Remove);
  EXPECT_EQ(removed.desired, first.user());
}

TEST(Planner, AnUnreadableRecordLeavesTheTemplateAlone) {
  Doc doc(deployment(kSpec, "      annotations: {archfit.io/owned: \"I was here\"}\n"));
  TemplatePlan p = plan(doc, Lock{{kImage, "linux/amd64"}});
  EXPECT_FALSE(p.changes_template());
  ASSERT_EQ(rules(p), std::vector<std::string>{"stale-placement"});
  EXPECT_EQ(finding(p, "stale-placement").severity, findings::Severity::Error);
  EXPECT_NE(finding(p, "stale-placement").message.find("cannot be read"), std::string::npos);
}

TEST(Planner, APinThatExcludesEveryImagePlatformIsReportedAndKept) {
  Doc doc(deployment(kSpec + "      nodeSelector: {kubernetes.io/arch: arm64}\n"));
  TemplatePlan p = plan(doc, Lock{{kImage, "linux/amd64"}});
  EXPECT_FALSE(p.changes_template());
  ASSERT_EQ(rules(p), std::vector<std::string>{"pinned-to-unsupported-platform"});
  const findings::Finding& pinned = finding(p, "pinned-to-unsupported-platform");
  EXPECT_NE(pinned.message.find("(nodeSelector kubernetes.io/arch=arm64) allow only linux/arm64"),
            std::string::npos)
      << pinned.message;
}

TEST(Planner, PlacesByTheImagesItKnows) {
  std::string spec =
      kSpec + "      - name: sidecar\n        image: registry.example.com/unknown:1\n";
  Doc doc(deployment(spec));
  TemplatePlan p = plan(doc, Lock{{kImage, "linux/amd64"}});
  EXPECT_TRUE(p.changes_template());
  EXPECT_EQ(rules(p), (std::vector<std::string>{"unresolved-image", "missing-arch-affinity+"}));
  // With onUnresolved: fail nothing changes.
  Config fail = Config::defaults();
  fail.on_unresolved = OnUnresolved::Fail;
  TemplatePlan q = plan(doc, Lock{{kImage, "linux/amd64"}}, fail);
  EXPECT_FALSE(q.changes_template());
  ASSERT_EQ(rules(q), std::vector<std::string>{"unresolved-image"});
  EXPECT_EQ(finding(q, "unresolved-image").severity, findings::Severity::Error);
}

TEST(Planner, AnAssumedImagePlacesThePodsAndSaysItIsAssumed) {
  std::string spec =
      kSpec + "      - name: sidecar\n        image: registry.example.com/unknown:1\n";
  Doc doc(deployment(spec));
  TemplatePlan p = plan(doc, Lock({{kImage, "linux/amd64,linux/arm64"}}, "linux/amd64"));
  // Only amd64 is common to the known image and the assumed one.
  EXPECT_EQ(p.platforms.str(), "linux/amd64");
  const findings::Finding& f = finding(p, "unresolved-image");
  EXPECT_EQ(f.severity, findings::Severity::Warning);
  EXPECT_NE(f.message.find("not in the test's lock; using resolve.fallbackPlatforms (linux/amd64)"),
            std::string::npos)
      << f.message;
  // An assumption is not a fact: with onUnresolved: fail, nothing changes.
  Config fail = Config::defaults();
  fail.on_unresolved = OnUnresolved::Fail;
  TemplatePlan q = plan(doc, Lock({{kImage, "linux/amd64,linux/arm64"}}, "linux/amd64"), fail);
  EXPECT_FALSE(q.changes_template());
  EXPECT_EQ(finding(q, "unresolved-image").severity, findings::Severity::Error);
}

// Records are input: one saying archfit created the pod spec itself (it
// never does) leaves the spec alone (found by fuzz/edit: the view lost its
// spec and was read through a null pointer).
TEST(Planner, ARecordClaimingTheWholeSpecTakesNothingOfIt) {
  Doc doc(deployment(kSpec, "      annotations:\n        archfit.io/owned: +spec\n"));
  for (Action action : {Action::Fix, Action::Remove}) {
    TemplatePlan p =
        plan(doc, Lock{{kImage, "linux/amd64,linux/arm64"}}, Config::defaults(), action);
    for (const yaml::FieldChange& c : p.changes)
      EXPECT_FALSE(c.remove && c.path == std::vector<std::string>{"spec"});
    for (const yaml::FieldChange& c : p.removal)
      EXPECT_FALSE(c.remove && c.path == std::vector<std::string>{"spec"});
  }
}

TEST(Planner, QuietPlansWriteTheSameAndWordOnlyWhatIsLeft) {
  Doc doc(deployment(kSpec));
  Lock lock{{kImage, "linux/arm64"}};
  TemplateContext where{&doc.workload(), &doc.pod_template(), "t.yaml", 0, true, nullptr, {}};
  TemplatePlan quiet = plan_template(where, Config::defaults(), lock.lookup());
  TemplatePlan full = plan(doc, lock);
  EXPECT_EQ(quiet.desired, full.desired);
  EXPECT_TRUE(quiet.findings.empty());
  EXPECT_FALSE(full.findings.empty());
}

TEST(Planner, OptedOutTemplatesAreNotPlanned) {
  Doc doc(deployment(kSpec, "      annotations: {archfit.io/skip: \"true\"}\n"));
  TemplatePlan p = plan(doc, Lock{{kImage, "linux/amd64"}});
  EXPECT_FALSE(p.changes_template());
  EXPECT_TRUE(p.findings.empty());
}

TEST(Planner, RemovalChangesUndoWhatFixWrites) {
  Doc doc(deployment(kSpec + "      tolerations: [{key: a, operator: Exists}]\n"));
  TemplatePlan p = plan(doc, Lock{{kImage, "linux/arm64"}});
  std::vector<yaml::FieldChange> back = removal_changes(p.desired);
  yaml::Value view = p.desired;
  // Applying the removal changes to the desired view gives the user's view.
  for (const yaml::FieldChange& c : back) {
    yaml::Value* at = &view;
    for (std::size_t i = 0; i + 1 < c.path.size(); ++i)
      at = at->find(c.path[i]);
    if (c.remove) {
      at->erase(c.path.back());
    } else {
      at->set(c.path.back(), c.value);
    }
  }
  EXPECT_EQ(view, p.user());
}

}  // namespace
}  // namespace archfit::placement
