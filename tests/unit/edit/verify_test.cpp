// The check of an edit: the quick walk proves ordinary edits without turning
// documents into data, never proves a wrong one, and the whole check agrees
// with the definition (data of the original with the changes applied).
#include <gtest/gtest.h>

#include <archfit/edit/verify.hpp>
#include <archfit/yaml/parse.hpp>
#include <archfit/yaml/path.hpp>

namespace archfit::edit {
namespace {

using yaml::FieldChange;
using yaml::Value;

Value data(const std::string& text) {
  yaml::Tree tree = yaml::parse_document(text);
  return yaml::to_value(tree.root());
}

FieldChange set(std::vector<std::string> path, const std::string& yaml_value) {
  return FieldChange{std::move(path), data(yaml_value), false, std::nullopt};
}

FieldChange remove(std::vector<std::string> path) {
  return FieldChange{std::move(path), Value(), true, std::nullopt};
}

struct Check {
  bool walk = false;
  bool full = false;
};

Check check(const std::string& before, const std::string& after, const std::string& path,
            const std::vector<FieldChange>& changes) {
  // Verification must hold even for a document with a key twice (the parser
  // refuses those by default).
  yaml::Limits lenient;
  lenient.reject_duplicate_keys = false;
  yaml::Tree a = yaml::parse_document(before, 0, lenient);
  yaml::Tree b = yaml::parse_document(after, 0, lenient);
  const yaml::Path steps = yaml::parse_path(path);
  std::vector<AppliedChanges> applied{AppliedChanges{steps, &changes}};
  return Check{walk_proves(a.root(), b.root(), applied),
               means_as_intended(a.root(), b.root(), applied)};
}

// A document whose pod template (at spec.template) has these pod spec lines.
std::string pod_spec(const std::string& lines) {
  return "spec:\n  template:\n    spec:\n" + lines;
}

const char* kDeployment = R"(apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: nginx:1.25
)";

const char* kPlaced = R"(apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  template:
    metadata:
      labels: {app: web}
      annotations:
        archfit.io/platforms: linux/amd64
    spec:
      containers:
      - name: web
        image: nginx:1.25
      nodeSelector:
        kubernetes.io/arch: amd64
)";

std::vector<FieldChange> placed_changes() {
  return {set({"metadata", "annotations", "archfit.io/platforms"}, "linux/amd64"),
          set({"spec", "nodeSelector"}, "{kubernetes.io/arch: amd64}")};
}

TEST(Verify, TheWalkProvesAnOrdinaryEdit) {
  Check c = check(kDeployment, kPlaced, "spec.template", placed_changes());
  EXPECT_TRUE(c.walk);
  EXPECT_TRUE(c.full);
}

TEST(Verify, AChangeOutsideTheChangedFieldsIsCaught) {
  std::string wrong = kPlaced;
  wrong.replace(wrong.find("name: web"), 9, "name: api");
  Check c = check(kDeployment, wrong, "spec.template", placed_changes());
  EXPECT_FALSE(c.walk);
  EXPECT_FALSE(c.full);
}

TEST(Verify, AWrongValueInAChangedFieldIsCaught) {
  std::string wrong = kPlaced;
  wrong.replace(wrong.find("arch: amd64"), 11, "arch: arm64");
  Check c = check(kDeployment, wrong, "spec.template", placed_changes());
  EXPECT_FALSE(c.walk);
  EXPECT_FALSE(c.full);
}

TEST(Verify, AMissingOrExtraKeyIsCaught) {
  std::string missing = kPlaced;
  missing.erase(missing.find("      nodeSelector:"));
  EXPECT_FALSE(check(kDeployment, missing, "spec.template", placed_changes()).full);

  std::string extra = std::string(kPlaced) + "      hostNetwork: true\n";
  Check c = check(kDeployment, extra, "spec.template", placed_changes());
  EXPECT_FALSE(c.walk);
  EXPECT_FALSE(c.full);
}

TEST(Verify, AScalarThatReadsDifferentlyIsCaught) {
  // `"1"` is a string, `1` a number: the same characters, different data.
  const std::string before = pod_spec("      priority: \"1\"\n");
  const std::string after = pod_spec("      priority: 1\n      nodeSelector: {a: b}\n");
  Check c = check(before, after, "spec.template", {set({"spec", "nodeSelector"}, "{a: b}")});
  EXPECT_FALSE(c.walk);
  EXPECT_FALSE(c.full);
}

// Mappings of more than a few keys are looked up sorted: the walk proves an
// edit in one, and catches a changed key, a lost key and a duplicate there.
TEST(Verify, LargeMappingsAreWalkedToo) {
  std::string keys;
  for (int i = 0; i < 20; ++i)
    keys += "      k" + std::to_string(19 - i) + ": v" + std::to_string(i) + "\n";
  const std::string before = pod_spec(keys);
  const std::string after = before + "      nodeSelector: {a: b}\n";
  const std::vector<FieldChange> changes{set({"spec", "nodeSelector"}, "{a: b}")};
  Check ok = check(before, after, "spec.template", changes);
  EXPECT_TRUE(ok.walk);
  EXPECT_TRUE(ok.full);

  std::string changed = after;
  changed.replace(changed.find("k7: v12"), 7, "k7: v13");
  EXPECT_FALSE(check(before, changed, "spec.template", changes).full);

  std::string lost = after;
  lost.erase(lost.find("      k7: v12\n"), 14);
  EXPECT_FALSE(check(before, lost, "spec.template", changes).full);

  // A duplicate key proves nothing by the walk; the data comparison decides.
  const std::string doubled = after + "      k7: v12\n";
  Check dup = check(before, doubled, "spec.template", changes);
  EXPECT_FALSE(dup.walk);
  EXPECT_TRUE(dup.full);
}

// Unchanged bytes prove an unchanged collection only without aliases: here
// the aliased tolerations change, so the unchanged `copy` means something else.
TEST(Verify, UnchangedTextWithAnAliasIsNotTrusted) {
  const std::string before = pod_spec(
      "      tolerations: &t [{key: a}]\n"
      "      copy: {of: *t}\n");
  const std::string after = pod_spec(
      "      tolerations: &t [{key: b}]\n"
      "      copy: {of: *t}\n");
  Check c = check(before, after, "spec.template", {set({"spec", "tolerations"}, "[{key: b}]")});
  EXPECT_FALSE(c.walk);
  EXPECT_FALSE(c.full);
}

TEST(Verify, StyleOnlyDifferencesFallBackToData) {
  // A quoted and a plain string are the same data; the walk cannot tell.
  const std::string before = pod_spec("      name: 'web'\n");
  const std::string after = pod_spec("      name: web\n      nodeSelector: {a: b}\n");
  Check c = check(before, after, "spec.template", {set({"spec", "nodeSelector"}, "{a: b}")});
  EXPECT_FALSE(c.walk);
  EXPECT_TRUE(c.full);
}

TEST(Verify, ARemovalHiddenByAMergeKeyIsNotProvedByTheWalk) {
  // Taking out an explicit key that a merge key also supplies leaves the
  // merged value in the data: the edit did not do what it meant.
  const char* before = R"(base: &base
  nodeSelector: {a: b}
spec:
  template:
    spec:
      <<: *base
      nodeSelector: {c: d}
)";
  const char* after = R"(base: &base
  nodeSelector: {a: b}
spec:
  template:
    spec:
      <<: *base
)";
  Check c = check(before, after, "spec.template", {remove({"spec", "nodeSelector"})});
  EXPECT_FALSE(c.walk);
  EXPECT_FALSE(c.full);
}

TEST(Verify, AnAliasedValueIsComparedAsData) {
  const char* before = R"(tol: &tol [{key: a, operator: Exists}]
spec:
  template:
    spec:
      tolerations: *tol
)";
  const char* after = R"(tol: &tol [{key: a, operator: Exists}]
spec:
  template:
    spec:
      tolerations: [{key: a, operator: Exists}, {key: b, operator: Exists}]
)";
  std::vector<FieldChange> changes{
      set({"spec", "tolerations"}, "[{key: a, operator: Exists}, {key: b, operator: Exists}]")};
  EXPECT_TRUE(check(before, after, "spec.template", changes).full);
}

TEST(Verify, TemplatesInAListAreFoundByIndex) {
  const char* before = R"(kind: List
items:
- kind: Pod
  spec: {containers: [{name: a, image: a}]}
- kind: Pod
  spec: {containers: [{name: b, image: b}]}
)";
  const char* after = R"(kind: List
items:
- kind: Pod
  spec: {containers: [{name: a, image: a}]}
- kind: Pod
  spec: {containers: [{name: b, image: b}], nodeSelector: {x: y}}
)";
  std::vector<FieldChange> changes{set({"spec", "nodeSelector"}, "{x: y}")};
  Check right = check(before, after, "items[1]", changes);
  EXPECT_TRUE(right.walk);
  EXPECT_TRUE(right.full);
  Check wrong = check(before, after, "items[0]", changes);
  EXPECT_FALSE(wrong.walk);
  EXPECT_FALSE(wrong.full);
}

TEST(Verify, RemovingAKeyThatIsThere) {
  Check c = check(kPlaced, kDeployment, "spec.template",
                  {remove({"metadata", "annotations"}), remove({"spec", "nodeSelector"})});
  EXPECT_TRUE(c.walk);
  EXPECT_TRUE(c.full);
  Check kept = check(kPlaced, kPlaced, "spec.template", {remove({"spec", "nodeSelector"})});
  EXPECT_FALSE(kept.walk);
  EXPECT_FALSE(kept.full);
}

TEST(Verify, IntendedValueAppliesChangesInOrder) {
  yaml::Tree a = yaml::parse_document(kDeployment);
  std::vector<FieldChange> changes{set({"spec", "nodeSelector"}, "{a: b}"),
                                   set({"spec", "nodeSelector"}, "{c: d}")};
  const yaml::Path at = yaml::key_path({"spec", "template"});
  Value v = intended_value(a.root(), {AppliedChanges{at, &changes}});
  const Value* ns = yaml::lookup(v, yaml::parse_path("spec.template.spec.nodeSelector"));
  ASSERT_NE(ns, nullptr);
  EXPECT_EQ(yaml::to_json(*ns), R"({"c":"d"})");
}

}  // namespace
}  // namespace archfit::edit
