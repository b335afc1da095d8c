// What the API server would refuse in nodeSelector, node affinity and
// tolerations, and values archfit must not write over.
#include "placement/validate.hpp"

#include <gtest/gtest.h>

#include "unit/placement/placement_support.hpp"

namespace archfit::placement {
namespace {

using testing::data;

struct ValidateRow {
  const char* name;
  const char* spec;     // the view's spec
  const char* rule;     // "" when valid
  const char* message;  // a part of the message
};

class Validate : public ::testing::TestWithParam<ValidateRow> {};

TEST_P(Validate, NamesTheProblem) {
  auto problems = detail::validate_view(data(std::string("spec: ") + GetParam().spec));
  if (std::string(GetParam().rule).empty()) {
    EXPECT_TRUE(problems.empty()) << problems.front().message;
    return;
  }
  ASSERT_FALSE(problems.empty());
  EXPECT_EQ(std::string(problems.front().rule), GetParam().rule);
  EXPECT_NE(problems.front().message.find(GetParam().message), std::string::npos)
      << problems.front().message;
}

#define REQ(r)                                                                  \
  "{affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: " \
  "{nodeSelectorTerms: [{matchExpressions: [" r "]}]}}}}"

INSTANTIATE_TEST_SUITE_P(
    Specs, Validate,
    ::testing::Values(
        ValidateRow{"nothing", "{}", "", ""},
        ValidateRow{"nulls", "{nodeSelector: ~, affinity: ~, tolerations: ~}", "", ""},
        ValidateRow{"valid_requirements",
                    REQ("{key: a, operator: In, values: [x]}, {key: b, operator: Exists}, {key: c, "
                        "operator: Gt, values: ['5']}"),
                    "", ""},
        ValidateRow{"operator_equals", REQ("{key: a, operator: Equals, values: [x]}"),
                    "invalid-node-affinity", "operator \"Equals\""},
        ValidateRow{"in_without_values", REQ("{key: a, operator: In, values: []}"),
                    "invalid-node-affinity", "has no values"},
        ValidateRow{"exists_with_values", REQ("{key: a, operator: Exists, values: [x]}"),
                    "invalid-node-affinity", "has values"},
        ValidateRow{"gt_not_integer", REQ("{key: a, operator: Gt, values: [x]}"),
                    "invalid-node-affinity", "one integer value"},
        ValidateRow{"value_not_string", REQ("{key: a, operator: In, values: [1]}"),
                    "invalid-node-affinity", "quote it"},
        ValidateRow{"no_key", REQ("{operator: Exists}"), "invalid-node-affinity", "has no key"},
        ValidateRow{"no_terms",
                    "{affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
                    "{nodeSelectorTerms: []}}}}",
                    "invalid-node-affinity", "no nodeSelectorTerms"},
        ValidateRow{"empty_term",
                    "{affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
                    "{nodeSelectorTerms: [{}]}}}}",
                    "invalid-node-affinity", "nodeSelectorTerms[0] is empty"},
        ValidateRow{"match_fields_key",
                    "{affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
                    "{nodeSelectorTerms: "
                    "[{matchFields: [{key: metadata.labels, operator: In, values: [x]}]}]}}}}",
                    "invalid-node-affinity", "only the key metadata.name"},
        ValidateRow{"preferred_weight",
                    "{affinity: {nodeAffinity: {preferredDuringSchedulingIgnoredDuringExecution: "
                    "[{weight: 0, preference: {}}]}}}",
                    "invalid-node-affinity", "weight from 1 to 100"},
        ValidateRow{"affinity_string", "{affinity: keep-this-string}", "invalid-node-affinity",
                    "spec.affinity is a string"},
        ValidateRow{"selector_number", "{nodeSelector: {zone: 1}}", "invalid-node-affinity",
                    "quote it"},
        ValidateRow{"tolerations_string", "{tolerations: see runbook}", "invalid-toleration",
                    "spec.tolerations is a string"},
        ValidateRow{"toleration_value_number", "{tolerations: [{key: a, value: 7}]}",
                    "invalid-toleration", "value is a number"},
        ValidateRow{"toleration_operator", "{tolerations: [{key: a, operator: In}]}",
                    "invalid-toleration", "use Equal or Exists"},
        ValidateRow{"toleration_exists_with_value",
                    "{tolerations: [{key: a, operator: Exists, value: b}]}", "invalid-toleration",
                    "must not have a value"},
        ValidateRow{"toleration_without_key", "{tolerations: [{value: b}]}", "invalid-toleration",
                    "without a key must have operator Exists"},
        ValidateRow{"toleration_effect",
                    "{tolerations: [{key: a, operator: Exists, effect: Never}]}",
                    "invalid-toleration", "use NoSchedule"},
        // What the scheduler cannot read, the API server refuses
        // (TestPodMatchesNodeSelectorAndAffinityTerms: "Pod with an invalid
        // value in Affinity term won't be scheduled onto the node").
        ValidateRow{"invalid_label_value",
                    REQ("{key: foo, operator: NotIn, values: ['invalid value: ___@#$%^']}"),
                    "invalid-node-affinity", "is not a label value"},
        ValidateRow{"invalid_label_key", REQ("{key: 'a b', operator: Exists}"),
                    "invalid-node-affinity", "is not a label key"},
        ValidateRow{"selector_invalid_value", "{nodeSelector: {zone: 'a b'}}",
                    "invalid-node-affinity", "is not a label value"},
        ValidateRow{"selector_invalid_key", "{nodeSelector: {'a/b/c': x}}", "invalid-node-affinity",
                    "is not a label key"},
        ValidateRow{"toleration_gt_without_gate",
                    "{tolerations: [{key: sla, operator: Gt, value: '950'}]}", "invalid-toleration",
                    "feature gate TaintTolerationComparisonOperators"},
        ValidateRow{"toleration_invalid_key", "{tolerations: [{key: 'a b', operator: Exists}]}",
                    "invalid-toleration", "is not a label key"},
        ValidateRow{
            "toleration_seconds_without_no_execute",
            "{tolerations: [{key: a, operator: Exists, effect: NoSchedule, tolerationSeconds: 5}]}",
            "invalid-toleration", "only with the effect NoExecute"}),
    [](const auto& row) { return std::string(row.param.name); });

#undef REQ

// With the gate on, Gt and Lt are tolerations of canonical integers.
TEST(Validate, ComparisonOperatorsWithTheGate) {
  auto valid = detail::validate_view(
      data("spec: {tolerations: [{key: sla, operator: Gt, value: '950'}, {key: b, operator: Lt, "
           "value: '-3'}]}\n"),
      true);
  EXPECT_TRUE(valid.empty()) << valid.front().message;
  for (const char* value : {"'0950'", "'+1'", "high", "'-0'"}) {
    auto bad = detail::validate_view(
        data(std::string("spec: {tolerations: [{key: sla, operator: Gt, value: ") + value +
             "}]}\n"),
        true);
    ASSERT_EQ(bad.size(), 1u) << value;
    EXPECT_NE(bad[0].message.find("is not one"), std::string::npos) << bad[0].message;
  }
}

TEST(Validate, MetadataArchfitCannotRecordIn) {
  auto problems = detail::validate_view(data("metadata: {annotations: [keep-me]}\nspec: {}\n"));
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(std::string(problems[0].rule), "uneditable-yaml");
  EXPECT_NE(problems[0].message.find("annotations are a list"), std::string::npos)
      << problems[0].message;
  auto text = detail::validate_view(data("metadata: \"some text\"\nspec: {}\n"));
  ASSERT_EQ(text.size(), 1u);
  EXPECT_NE(text[0].message.find("metadata is a string"), std::string::npos) << text[0].message;
}

}  // namespace
}  // namespace archfit::placement
