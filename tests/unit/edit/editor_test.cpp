// The splice editor on small documents: exact output bytes, and the output
// always reads back as the input with the one value changed.
#include <gtest/gtest.h>

#include <archfit/edit/editor.hpp>
#include <archfit/yaml/parse.hpp>
#include <archfit/yaml/value.hpp>

namespace archfit::edit {
namespace {

using yaml::Value;

Value read_value(const std::string& text) {
  yaml::Tree tree = yaml::parse_document(text);
  return yaml::to_value(tree.root());
}

struct EditCase {
  const char* name;
  std::string input;
  std::vector<std::string> path;
  std::string value;  // YAML text of the new value; "" means: remove the key
  std::string expected;
};

class EditorCases : public ::testing::TestWithParam<EditCase> {};

TEST_P(EditorCases, ExactBytesAndMeaning) {
  const EditCase& c = GetParam();
  yaml::Tree tree = yaml::parse_document(c.input);
  DocumentEditor editor(tree, detect_layout(tree));
  std::string why;
  bool ok = c.value.empty() ? editor.try_remove(tree.root(), c.path, &why)
                            : editor.try_set(tree.root(), c.path, read_value(c.value), -1, &why);
  ASSERT_TRUE(ok) << why;
  std::string out = editor.apply();
  EXPECT_EQ(out, c.expected);

  Value want = read_value(c.input);
  Value* at = &want;
  for (std::size_t i = 0; i + 1 < c.path.size(); ++i) {
    if (at->find(c.path[i]) == nullptr) at->set(c.path[i], Value::mapping());
    at = at->find(c.path[i]);
  }
  if (c.value.empty()) {
    at->erase(c.path.back());
  } else {
    at->set(c.path.back(), read_value(c.value));
  }
  EXPECT_EQ(yaml::to_json(read_value(out)), yaml::to_json(want));
  EXPECT_EQ(read_value(out), want);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, EditorCases,
    ::testing::Values(
        EditCase{
            "append_key_to_block_mapping",
            "spec:\n  containers:\n  - name: a\n",
            {"spec", "nodeSelector"},
            "{kubernetes.io/arch: arm64}",
            "spec:\n  containers:\n  - name: a\n  nodeSelector:\n    kubernetes.io/arch: arm64\n"},
        EditCase{"create_nested_path",
                 "metadata:\n  name: x\nspec: {}\n",
                 {"metadata", "annotations", "archfit.io/platforms"},
                 "linux/amd64",
                 "metadata:\n  name: x\n  annotations:\n    archfit.io/platforms: linux/amd64\n"
                 "spec: {}\n"},
        EditCase{
            "append_block_items_flush",
            "t:\n- key: a\n  operator: Exists\nz: 1\n",
            {"t"},
            "[{key: a, operator: Exists}, {key: b, operator: Equal, value: v}]",
            "t:\n- key: a\n  operator: Exists\n- key: b\n  operator: Equal\n  value: v\nz: 1\n"},
        EditCase{"append_block_items_indented",
                 "s:\n  t:\n    - a\n    - b\n  u: 1\n",
                 {"s", "t"},
                 "[a, b, c]",
                 "s:\n  t:\n    - a\n    - b\n    - c\n  u: 1\n"},
        EditCase{"append_flow_items",
                 "t: [{key: a, operator: Exists}]\n",
                 {"t"},
                 "[{key: a, operator: Exists}, {key: b, operator: Exists}]",
                 "t: [{key: a, operator: Exists}, {key: b, operator: Exists}]\n"},
        EditCase{"append_flow_entry",
                 "r: {cpu: 1}\n",
                 {"r"},
                 "{cpu: 1, memory: 1Gi}",
                 "r: {cpu: 1, memory: 1Gi}\n"},
        EditCase{"replace_scalar", "a: 1\nb: old # keep\n", {"b"}, "new", "a: 1\nb: new # keep\n"},
        EditCase{"replace_scalar_that_needs_quotes", "a: x\n", {"a"}, "'yes'", "a: \"yes\"\n"},
        // A chart's empty `[]` or `{}` fills in block style, as a null does.
        EditCase{"empty_flow_sequence_fills_in_block",
                 "spec:\n  tolerations: []\n  x: 1\n",
                 {"spec", "tolerations"},
                 "[{key: k, operator: Exists}]",
                 "spec:\n  tolerations:\n  - key: k\n    operator: Exists\n  x: 1\n"},
        EditCase{"empty_flow_mapping_fills_in_block",
                 "spec:\n  affinity: {}\n",
                 {"spec", "affinity", "nodeAffinity"},
                 "{x: 1}",
                 "spec:\n  affinity:\n    nodeAffinity:\n      x: 1\n"},
        // ... but not with a comment after it, an anchor or a space inside.
        EditCase{"empty_flow_sequence_with_a_comment_stays_flow",
                 "spec:\n  tolerations: [] # none\n",
                 {"spec", "tolerations"},
                 "[{key: k, operator: Exists}]",
                 "spec:\n  tolerations: [{key: k, operator: Exists}] # none\n"},
        EditCase{"empty_flow_mapping_with_an_anchor_stays_flow",
                 "spec:\n  affinity: &a {}\n",
                 {"spec", "affinity", "nodeAffinity"},
                 "{x: 1}",
                 "spec:\n  affinity: &a {nodeAffinity: {x: 1}}\n"},
        EditCase{"empty_flow_mapping_stays_flow",
                 "spec:\n  affinity: { }\n",
                 {"spec", "affinity", "nodeAffinity"},
                 "{x: 1}",
                 "spec:\n  affinity: {nodeAffinity: {x: 1} }\n"},
        EditCase{"multi_line_flow_keeps_its_separator",
                 "{\n  \"a\": 1,\n  \"b\": 2\n}\n",
                 {"c"},
                 "[x]",
                 "{\n  \"a\": 1,\n  \"b\": 2,\n  \"c\": [\"x\"]\n}\n"},
        EditCase{"json_document_gets_json",
                 "{\"spec\": {\"containers\": []}}\n",
                 {"spec", "tolerations"},
                 "[{key: k, operator: Exists}]",
                 "{\"spec\": {\"containers\": [], \"tolerations\": [{\"key\": \"k\", \"operator\": "
                 "\"Exists\"}]}}\n"},
        EditCase{"null_value_becomes_block",
                 "spec:\n  affinity:\n  x: 1\n",
                 {"spec", "affinity"},
                 "{a: [1, 2]}",
                 "spec:\n  affinity:\n    a:\n    - 1\n    - 2\n  x: 1\n"},
        EditCase{"narrow_flow_values",
                 "e: {key: k, operator: In, values: [amd64, arm64]}\n",
                 {"e", "values"},
                 "[amd64]",
                 "e: {key: k, operator: In, values: [amd64]}\n"},
        EditCase{"narrow_block_values_last",
                 "values:\n- amd64\n- arm64\nnext: 1\n",
                 {"values"},
                 "[amd64]",
                 "values:\n- amd64\nnext: 1\n"},
        EditCase{"narrow_block_values_first",
                 "values:\n- amd64\n- arm64\n",
                 {"values"},
                 "[arm64]",
                 "values:\n- arm64\n"},
        EditCase{"remove_middle_key", "a: 1\nb: 2\nc: 3\n", {"b"}, "", "a: 1\nc: 3\n"},
        EditCase{"remove_last_key", "a: 1\nb: 2\nc: 3\n", {"c"}, "", "a: 1\nb: 2\n"},
        EditCase{"remove_first_key_of_compact_item",
                 "l:\n- a: 1\n  b: 2\n",
                 {"l"},
                 "[{b: 2}]",
                 "l:\n- b: 2\n"},
        EditCase{"crlf_lines",
                 "spec:\r\n  a: 1\r\n",
                 {"spec", "b"},
                 "[x]",
                 "spec:\r\n  a: 1\r\n  b:\r\n  - x\r\n"},
        EditCase{"four_space_indent",
                 "spec:\n    template:\n        a: 1\n",
                 {"spec", "template", "b"},
                 "{c: {d: 1}}",
                 "spec:\n    template:\n        a: 1\n        b:\n            c:\n                "
                 "d: 1\n"},
        EditCase{"no_final_newline", "spec:\n  a: 1", {"spec", "b"}, "2", "spec:\n  a: 1\n  b: 2"},
        EditCase{"after_block_scalar",
                 "spec:\n  script: |\n    echo hi\n\nother: 1\n",
                 {"spec", "b"},
                 "2",
                 "spec:\n  script: |\n    echo hi\n\n  b: 2\nother: 1\n"},
        EditCase{"comments_stay",
                 "spec: # the pod\n  # first\n  a: 1 # one\n  # trailing\nz: 0\n",
                 {"spec", "b"},
                 "2",
                 "spec: # the pod\n  # first\n  a: 1 # one\n  b: 2\n  # trailing\nz: 0\n"},
        EditCase{"append_expression_to_term",
                 "terms:\n- matchExpressions:\n  - key: zone\n    operator: In\n    values: [a]\n",
                 {"terms"},
                 "[{matchExpressions: [{key: zone, operator: In, values: [a]}, "
                 "{key: kubernetes.io/arch, operator: In, values: [arm64]}]}]",
                 "terms:\n- matchExpressions:\n  - key: zone\n    operator: In\n    values: [a]\n"
                 "  - key: kubernetes.io/arch\n    operator: In\n    values:\n    - arm64\n"},
        EditCase{"match_fields_only_term",
                 "terms:\n- matchFields:\n  - {key: metadata.name, operator: In, values: [n1]}\n",
                 {"terms"},
                 "[{matchFields: [{key: metadata.name, operator: In, values: [n1]}], "
                 "matchExpressions: [{key: kubernetes.io/arch, operator: In, values: [amd64]}]}]",
                 "terms:\n- matchFields:\n  - {key: metadata.name, operator: In, values: [n1]}\n"
                 "  matchExpressions:\n  - key: kubernetes.io/arch\n    operator: In\n"
                 "    values:\n    - amd64\n"},
        EditCase{"quoted_keys_and_values",
                 "\"spec\":\n  \"a\": \"1\"\n",
                 {"spec", "b"},
                 "'on'",
                 "\"spec\":\n  \"a\": \"1\"\n  b: \"on\"\n"}),
    [](const auto& test) { return test.param.name; });

TEST(Editor, AnchorUsedElsewhereIsUneditable) {
  std::string text = "a: &shared\n  x: 1\nb: *shared\n";
  yaml::Tree tree = yaml::parse_document(text);
  DocumentEditor editor(tree, detect_layout(tree));
  std::string why;
  EXPECT_FALSE(editor.try_set(tree.root(), {"a", "y"}, Value::integer(2), -1, &why));
  EXPECT_NE(why.find("anchor &shared"), std::string::npos) << why;
  EXPECT_TRUE(editor.empty());
  EXPECT_EQ(editor.apply(), text);
}

// A key YAML 1.1 reads as another word (`no` is false, `0x10` is 16) is
// matched by what it means: an edit that keeps it keeps its bytes (found by
// fuzz/edit: `no` was rewritten as "false").
TEST(Editor, KeysAreMatchedByWhatTheyMean) {
  std::string text = "affinity:\n  no: NoSchedule\n  0x10: x\n";
  yaml::Tree tree = yaml::parse_document(text);
  DocumentEditor editor(tree, detect_layout(tree));
  std::string why;
  ASSERT_TRUE(editor.try_set(tree.root(), {"affinity"},
                             read_value("{\"false\": NoSchedule, \"16\": x, nodeAffinity: {a: 1}}"),
                             -1, &why))
      << why;
  EXPECT_EQ(editor.apply(), "affinity:\n  no: NoSchedule\n  0x10: x\n  nodeAffinity:\n    a: 1\n");
}

TEST(Editor, AnchorNobodyUsesIsEditable) {
  yaml::Tree tree = yaml::parse_document("a: &lonely\n  x: 1\n");
  DocumentEditor editor(tree, detect_layout(tree));
  ASSERT_TRUE(editor.try_set(tree.root(), {"a", "y"}, Value::integer(2)));
  // "y" is a boolean to YAML 1.1 readers, so the key is quoted.
  EXPECT_EQ(editor.apply(), "a: &lonely\n  x: 1\n  \"y\": 2\n");
}

TEST(Editor, InsertsAtOnePlaceGoDeepestFirst) {
  // Both the new spec key and the new template key land after the last line.
  std::string text = "template:\n  spec:\n    containers:\n    - name: a\n";
  yaml::Tree tree = yaml::parse_document(text);
  DocumentEditor editor(tree, detect_layout(tree));
  ASSERT_TRUE(editor.try_set(tree.root(), {"template", "metadata", "annotations", "k"},
                             Value::string("v")));
  ASSERT_TRUE(editor.try_set(tree.root(), {"template", "spec", "containers"},
                             read_value("[{name: a}, {name: b}]")));
  ASSERT_TRUE(
      editor.try_set(tree.root(), {"template", "spec", "nodeSelector"}, read_value("{a: b}")));
  EXPECT_EQ(editor.apply(),
            "template:\n  spec:\n    containers:\n    - name: a\n    - name: b\n"
            "    nodeSelector:\n      a: b\n  metadata:\n    annotations:\n      k: v\n");
}

// A key taken out and then the mapping that holds it: the removals overlap,
// and apply() takes out their union; so does their one replacement.
TEST(Editor, RemovalsThatOverlapAreOneReplacement) {
  const std::string text = "a:\n  b: 1\n  c: 2\nd: 3\n";
  yaml::Tree tree = yaml::parse_document(text);
  DocumentEditor editor(tree, detect_layout(tree));
  ASSERT_TRUE(editor.try_remove(tree.root(), {"a", "b"}));
  ASSERT_TRUE(editor.try_remove(tree.root(), {"a"}));
  const std::string applied = editor.apply();
  EXPECT_EQ(applied, "d: 3\n");
  Splices replacements = std::move(editor).replacements();
  ASSERT_EQ(replacements.replacements().size(), 1u);
  EXPECT_TRUE(replacements.gives(text, applied));
}

TEST(Editor, RollbackDropsSplices) {
  yaml::Tree tree = yaml::parse_document("a: 1\n");
  DocumentEditor editor(tree, detect_layout(tree));
  auto mark = editor.checkpoint();
  ASSERT_TRUE(editor.try_set(tree.root(), {"b"}, Value::integer(2)));
  editor.rollback(mark);
  EXPECT_TRUE(editor.empty());
  EXPECT_EQ(editor.apply(), "a: 1\n");
}

// What would change another place of the document, or hide a value that
// comes in through a merge key, is refused with a reason that names it.
struct Refusal {
  const char* name;
  std::string input;
  std::vector<std::string> path;
  std::string value;
  std::string reason;  // a part of what try_set says
};

class EditorRefuses : public ::testing::TestWithParam<Refusal> {};

TEST_P(EditorRefuses, NamingTheConstruct) {
  const Refusal& c = GetParam();
  yaml::Tree tree = yaml::parse_document(c.input);
  DocumentEditor editor(tree, detect_layout(tree));
  std::string why;
  EXPECT_FALSE(editor.try_set(tree.root(), c.path, read_value(c.value), -1, &why));
  EXPECT_NE(why.find(c.reason), std::string::npos) << why;
  EXPECT_EQ(editor.apply(), c.input);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, EditorRefuses,
    ::testing::Values(
        Refusal{"alias_value",
                "base: &t [{key: a}]\nuse: *t\n",
                {"use"},
                "[{key: a}, {key: b}]",
                "the alias *t, which stands for the anchor &t (line 1)"},
        Refusal{"alias_on_the_way", "m: &m {x: 1}\nspec: *m\n", {"spec", "y"}, "2", "alias *m"},
        Refusal{"merged_key_would_be_hidden",
                "common: &c {tolerations: [{key: a}]}\nspec:\n  <<: *c\n  containers: []\n",
                {"spec", "tolerations"},
                "[{key: a}, {key: b}]",
                "\"tolerations\" comes in through the merge key `<<` at line 3, column 3"},
        Refusal{"flow_merge_key",
                "common: &c {tolerations: [{key: a}]}\nspec: {<<: *c, containers: []}\n",
                {"spec", "tolerations"},
                "[{key: b}]",
                "merge key `<<` at line 2"},
        Refusal{"explicit_key",
                "spec:\n  ? tolerations\n  : [{key: a}]\n",
                {"spec", "tolerations"},
                "{x: 1}",
                "explicit `? key`"}),
    [](const auto& test) { return test.param.name; });

// A key that comes in through a merge key and already holds the wanted value
// needs no edit, and a key the merged mappings lack can be added beside them.
TEST(Editor, MergedKeysAreLeftAsTheyAre) {
  std::string text = "common: &c {tolerations: [{key: a}]}\nspec:\n  <<: *c\n  x: 1\n";
  yaml::Tree tree = yaml::parse_document(text);
  DocumentEditor editor(tree, detect_layout(tree));
  std::string why;
  ASSERT_TRUE(editor.try_set(tree.root(), {"spec"},
                             read_value("{tolerations: [{key: a}], x: 1, z: 2}"), -1, &why))
      << why;
  EXPECT_EQ(editor.apply(),
            "common: &c {tolerations: [{key: a}]}\nspec:\n  <<: *c\n  x: 1\n  z: 2\n");
}

// Adding a value and then setting the old value back gives the original bytes:
// what archfit adds it can take out exactly.
struct RoundTrip {
  const char* name;
  std::string input;
  std::vector<std::string> path;
  std::string value;
};

class EditorRoundTrips : public ::testing::TestWithParam<RoundTrip> {};

TEST_P(EditorRoundTrips, TakingOutWhatWasAddedGivesTheBytesBack) {
  const RoundTrip& c = GetParam();
  yaml::Tree tree = yaml::parse_document(c.input);
  Value old = yaml::to_value(tree.root());
  DocumentEditor editor(tree, detect_layout(tree));
  std::string why;
  ASSERT_TRUE(editor.try_set(tree.root(), c.path, read_value(c.value), -1, &why)) << why;
  std::string added = editor.apply();
  ASSERT_NE(added, c.input);

  yaml::Tree changed = yaml::parse_document(added);
  DocumentEditor back(changed, detect_layout(changed));
  const Value* was = &old;
  for (const std::string& key : c.path)
    was = was == nullptr ? nullptr : was->find(key);
  bool ok = was != nullptr ? back.try_set(changed.root(), c.path, *was, -1, &why)
                           : back.try_remove(changed.root(), c.path, &why);
  ASSERT_TRUE(ok) << why;
  EXPECT_EQ(back.apply(), c.input) << "after adding:\n" << added;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, EditorRoundTrips,
    ::testing::Values(
        RoundTrip{"new_key_at_end", "spec:\n  a: 1\n", {"spec", "b"}, "{x: [1, 2]}"},
        RoundTrip{"item_appended", "t:\n- a\n- b\n", {"t"}, "[a, b, c]"},
        RoundTrip{"item_in_middle", "t:\n- a\n- b\n", {"t"}, "[a, x, b]"},
        RoundTrip{"key_in_middle", "m:\n  a: 1\n  b: 2\n", {"m"}, "{a: 1, x: 3, b: 2}"},
        RoundTrip{"flow_item_appended", "t: [a, b]\n", {"t"}, "[a, b, c]"},
        RoundTrip{"flow_item_in_middle", "t: [a,  b]\n", {"t"}, "[a, x, b]"},
        RoundTrip{"empty_flow_with_space", "t: [ ]\n", {"t"}, "[a]"},
        RoundTrip{"empty_flow_mapping", "m: {}\nn: 1\n", {"m"}, "{a: {b: [c]}}"},
        RoundTrip{"null_tilde", "spec:\n  affinity: ~\n  x: 1\n", {"spec", "affinity"}, "{a: 1}"},
        RoundTrip{"null_empty", "spec:\n  affinity:\n  x: 1\n", {"spec", "affinity"}, "{a: 1}"},
        RoundTrip{
            "null_word_in_flow", "{spec: {affinity: null}}\n", {"spec", "affinity"}, "{a: 1}"},
        RoundTrip{"crlf", "spec:\r\n  a: 1\r\n", {"spec", "b"}, "[x, y]"},
        RoundTrip{"no_final_newline", "spec:\n  a: 1", {"spec", "b"}, "[x]"},
        RoundTrip{"trailing_comment", "spec:\n  a: 1  # keep\n# end\n", {"spec", "b"}, "{c: d}"},
        RoundTrip{"expression_in_term",
                  "terms:\n- matchExpressions:\n  - {key: a, operator: In, values: [x]}\n",
                  {"terms"},
                  "[{matchExpressions: [{key: a, operator: In, values: [x]}, {key: b, operator: "
                  "Exists}]}]"},
        // A mapping whose merge keys bring nothing in is not empty: emptying
        // it of archfit's keys keeps them (found by fuzz/edit.cpp).
        RoundTrip{"beside_merge_of_null", "d: &d\nm:\n  <<: *d\n", {"m"}, "{a: 1}"},
        RoundTrip{"beside_merge_of_empty", "d: &d {}\nm:\n  <<: [*d]\n", {"m"}, "{a: 1}"},
        RoundTrip{
            "multi_line_json", "{\n  \"spec\": {\n    \"a\": 1\n  }\n}\n", {"spec", "b"}, "[1]"}),
    [](const auto& test) { return test.param.name; });

}  // namespace
}  // namespace archfit::edit
