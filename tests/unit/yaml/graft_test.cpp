// yaml::graft on small documents: where it builds a tree, that tree is the
// one a parse of the edited text gives, node for node; where the new lines'
// meaning could depend on what surrounds them, it declines.
#include <gtest/gtest.h>

#include <archfit/yaml/graft.hpp>
#include <archfit/yaml/parse.hpp>
#include <archfit/yaml/path.hpp>

namespace archfit::yaml {
namespace {

// Lines to insert: into the collection at `path` ("a.b[1]"; "" is the root),
// in front of its entry `before`, at the start of the line that holds
// `at_line` (a 0-based line of the original; one past the last line is the
// end of the text).
struct Lines {
  std::string path;
  std::size_t before;
  std::size_t at_line;
  std::string text;
};

struct GraftCase {
  const char* name;
  std::string base;
  std::vector<Lines> lines;
  bool grafts;
  std::uint32_t first_line = 0;
};

void PrintTo(const GraftCase& c, std::ostream* os) {
  *os << c.name;
}

NodeRef at_path(const Tree& tree, std::string_view path) {
  return lookup(tree.root(), parse_path(path));
}

std::uint32_t line_offset(std::string_view text, std::size_t line) {
  std::size_t pos = 0;
  for (std::size_t i = 0; i < line; ++i) {
    std::size_t lf = text.find('\n', pos);
    if (lf == std::string_view::npos) return static_cast<std::uint32_t>(text.size());
    pos = lf + 1;
  }
  return static_cast<std::uint32_t>(pos);
}

class GraftCases : public ::testing::TestWithParam<GraftCase> {};

TEST_P(GraftCases, IsTheParsedTreeOrDeclines) {
  const GraftCase& c = GetParam();
  Tree base = parse_document(c.base, c.first_line);
  std::vector<Insertion> insertions;
  std::string edited;
  std::uint32_t from = 0;
  for (const Lines& l : c.lines) {
    NodeRef collection = at_path(base, l.path);
    ASSERT_TRUE(collection) << l.path;
    std::uint32_t at = line_offset(c.base, l.at_line);
    insertions.push_back(Insertion{collection.id(), l.before, at, l.text});
    edited += c.base.substr(from, at - from);
    edited += l.text;
    from = at;
  }
  edited += c.base.substr(from);

  std::optional<Tree> grafted = graft(base, edited, insertions);
  if (!c.grafts) {
    EXPECT_FALSE(grafted) << edited;
    return;
  }
  ASSERT_TRUE(grafted) << edited;
  Tree parsed = parse_document(edited, c.first_line);
  EXPECT_EQ(tree_difference(*grafted, parsed), "") << edited;
  EXPECT_EQ(grafted->text(), edited);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, GraftCases,
    ::testing::Values(
        GraftCase{
            "append_to_nested_mapping", "a:\n  b: 1\n  c: 2\n", {{"a", 2, 3, "  d: 3\n"}}, true},
        GraftCase{"before_a_middle_key",
                  "a:\n  b: 1\n  c: 2\nz: 0\n",
                  {{"a", 1, 2, "  x: [1, 2]\n  y:\n    deep: true\n"}},
                  true},
        GraftCase{"before_the_first_key", "a:\n  b: 1\n", {{"a", 0, 1, "  x: 0\n"}}, true},
        GraftCase{"root_before_its_first_key", "x: 1\ny: 2\n", {{"", 0, 0, "w: 0\n"}}, true},
        GraftCase{"root_append", "x: 1\ny: 2\n", {{"", 2, 2, "z:\n- 1\n- 2\n"}}, true},
        GraftCase{"append_before_a_dedent", "a:\n  b: 1\nz: 9\n", {{"a", 1, 2, "  c: 2\n"}}, true},
        GraftCase{"sequence_append", "l:\n  - 1\n  - 2\nz: 0\n", {{"l", 2, 3, "  - 3\n"}}, true},
        GraftCase{"sequence_middle",
                  "l:\n  - 1\n  - 2\n",
                  {{"l", 1, 2, "  - name: x\n    v: 1\n"}},
                  true},
        GraftCase{"sequence_start", "l:\n  - 1\n", {{"l", 0, 1, "  - 0\n"}}, true},
        GraftCase{
            "indentless_sequence_append", "l:\n- 1\n- 2\nz: 0\n", {{"l", 2, 3, "- 3\n"}}, true},
        GraftCase{"indentless_sequence_middle", "l:\n- 1\n- 2\n", {{"l", 1, 2, "- 1.5\n"}}, true},
        GraftCase{"comments_and_blank_lines_around",
                  "a:\n  b: 1  # one\n  # about c\n\n  c: 2\n  # after\nz: 0\n",
                  {{"a", 1, 4, "  x: 1\n"}, {"a", 2, 5, "  y: 2\n"}},
                  true},
        GraftCase{"crlf", "a:\r\n  b: 1\r\nz: 0\r\n", {{"a", 1, 2, "  c: 2\r\n"}}, true},
        GraftCase{"inner_then_outer_at_one_point",
                  "a:\n  b:\n    c: 1\nz: 0\n",
                  {{"a.b", 1, 3, "    d: 2\n"}, {"a", 1, 3, "  e: 3\n"}},
                  true},
        GraftCase{
            "non_ascii_before", "t: \"ü – 🚀\"\na:\n  b: ä\n", {{"a", 1, 3, "  c: 2\n"}}, true},
        GraftCase{"file_line_offset", "a:\n  b: 1\nz: 0\n", {{"a", 1, 2, "  c: 2\n"}}, true, 41},
        GraftCase{"after_a_multi_line_plain_scalar",
                  "a:\n  b: one\n    two\nz: 1\n",
                  {{"a", 1, 3, "  c: 2\n"}},
                  true},
        GraftCase{"after_a_flow_collection",
                  "a:\n  b: [1,\n    2]\n",
                  {{"a", 1, 3, "  c: {x: 1}\n"}},
                  true},
        GraftCase{"after_a_quoted_scalar",
                  "a:\n  b: \"one\n    two\"\nz: 1\n",
                  {{"a", 1, 3, "  c: 'x'\n"}},
                  true},
        GraftCase{"deep_template",
                  "spec:\n  template:\n    spec:\n      containers:\n      - image: a\n",
                  {{"spec.template.spec", 1, 5,
                    "      affinity:\n        nodeAffinity:\n          required:\n          - "
                    "key: kubernetes.io/arch\n            values: [amd64]\n"}},
                  true},
        GraftCase{"anchor_and_alias_elsewhere",
                  "x: &x 1\na:\n  b: *x\ny: *x\n",
                  {{"a", 1, 3, "  c: 2\n"}},
                  true},

        GraftCase{
            "after_a_literal_scalar", "a:\n  b: |\n    x\n", {{"a", 1, 3, "  c: 2\n"}}, false},
        // An explicit first key: the entries stand at its "?", not at the key's
        // own column; lines at the key's column would join the last entry.
        GraftCase{"first_key_explicit_at_the_keys_column",
                  "spec:\n  ? tolerations\n  : - key: a\n  containers:\n  - name: app\n",
                  {{"spec", 2, 5, "    affinity: {}\n"}},
                  false},
        // A mapping that is a sequence item: its first key follows the dash,
        // and the entries stand at that key.
        GraftCase{"into_a_sequence_items_mapping",
                  "l:\n- name: a\n  x: 1\n- name: b\n",
                  {{"l[0]", 2, 3, "  y: 2\n"}},
                  true},
        GraftCase{"into_a_nested_sequence_items_mapping",
                  "l:\n  - - name: a\n      x: 1\nz: 0\n",
                  {{"l[0][0]", 2, 3, "      y: 2\n"}},
                  true},
        GraftCase{"first_key_explicit_at_the_entries_column",
                  "spec:\n  ? tolerations\n  : - key: a\n  containers:\n  - name: app\n",
                  {{"spec", 2, 5, "  affinity: {}\n"}},
                  false},
        GraftCase{"after_a_keep_scalar",
                  "a:\n  b: |+\n    x\n\nz: 0\n",
                  {{"a", 1, 4, "  c: 2\n"}},
                  false},
        GraftCase{"after_an_empty_value", "a:\n  b:\nz: 1\n", {{"a", 1, 2, "  c: 2\n"}}, false},
        GraftCase{"root_after_an_empty_value", "a:\nb: 1\n", {{"", 1, 1, "c: 2\n"}}, false},
        GraftCase{"comment_that_touches_a_value",
                  "a:\n  b: \"x\"#c\nz: 1\n",
                  {{"a", 1, 2, "  c: 2\n"}},
                  false},
        GraftCase{"lines_without_a_final_break", "a:\n  b: 1\n", {{"a", 1, 2, "  c: 2"}}, false},
        GraftCase{"lines_with_an_anchor", "a:\n  b: 1\n", {{"a", 1, 2, "  c: &c 2\n"}}, false},
        GraftCase{"lines_with_a_tag", "a:\n  b: 1\n", {{"a", 1, 2, "  c: !!str 2\n"}}, false},
        GraftCase{"lines_at_another_column", "a:\n  b: 1\n", {{"a", 1, 2, "   c: 2\n"}}, false},
        GraftCase{"items_into_a_mapping", "a:\n  b: 1\n", {{"a", 1, 2, "  - 2\n"}}, false},
        GraftCase{"into_a_flow_mapping", "a: {b: 1}\n", {{"a", 1, 1, "  c: 2\n"}}, false},
        GraftCase{"a_key_given_twice", "a:\n  b: 1\n", {{"a", 1, 2, "  b: 2\n"}}, false},
        GraftCase{"lines_that_end_in_a_block_scalar",
                  "a:\n  b: 1\nz: 0\n",
                  {{"a", 1, 2, "  c: |\n    x\n"}},
                  false},
        GraftCase{
            "lines_that_end_the_document", "a:\n  b: 1\n", {{"a", 1, 2, "  c: 2\n...\n"}}, false},
        GraftCase{"unicode_line_separator",
                  "a:\n  b: 1\n",
                  {{"a", 1, 2, "  c: \"x\xE2\x80\xA8y\"\n"}},
                  false},
        GraftCase{"unicode_paragraph_separator",
                  "a:\n  b: 1\n",
                  {{"a", 1, 2, "  c: \"\xE2\x80\xA7\xE2\x80\xA9\"\n"}},
                  false},
        GraftCase{"unicode_next_line",
                  "a:\n  b: 1\n",
                  {{"a", 1, 2, "  c: \"\xC3\xA9\xC2\x85y\"\n"}},
                  false},
        GraftCase{"other_characters_of_two_and_three_bytes",
                  "a:\n  b: 1\n",
                  {{"a", 1, 2, "  c: \"\xC2\xA0\xE2\x80\xA7\xC3\xA9\"\n"}},
                  true},
        GraftCase{
            "not_at_the_next_keys_line", "a:\n  b: 1\n  c: 2\n", {{"a", 1, 1, "  x: 0\n"}}, false},
        GraftCase{"anchored_sequence", "l: &s\n  - 1\n", {{"l", 1, 2, "  - 2\n"}}, false},
        GraftCase{"lines_that_do_not_parse", "a:\n  b: 1\n", {{"a", 1, 2, "  c: [1\n"}}, false},
        GraftCase{"item_on_the_dash_line_of_a_parent",
                  "l:\n- a: 1\n  b: 2\n",
                  {{"l[0]", 0, 1, "  x: 0\n"}},
                  false}),
    [](const auto& test) { return test.param.name; });

TEST(Graft, DeclinesTextThatIsNotTheInsertion) {
  std::string base = "a:\n  b: 1\n";
  Tree tree = parse_document(base);
  std::string lines = "  c: 2\n";
  Insertion in{tree.root().get("a").id(), 1, static_cast<std::uint32_t>(base.size()), lines};
  const std::string other = base + "  c: 3\n", edited = base + lines;
  EXPECT_FALSE(graft(tree, other, {&in, 1}));
  EXPECT_FALSE(graft(tree, base, {&in, 1}));
  EXPECT_TRUE(graft(tree, edited, {&in, 1}));
  EXPECT_FALSE(graft(tree, edited, {}));
}

TEST(Graft, DeclinesPastTheDepthLimit) {
  std::string base = "a:\n  b: 1\n";
  Tree tree = parse_document(base);
  std::string lines = "  c:\n    d:\n      e: 1\n";
  Insertion in{tree.root().get("a").id(), 1, static_cast<std::uint32_t>(base.size()), lines};
  Limits shallow;
  shallow.max_depth = 4;
  const std::string edited = base + lines;
  EXPECT_FALSE(graft(tree, edited, {&in, 1}, shallow));
  EXPECT_TRUE(graft(tree, edited, {&in, 1}));
}

// The tree of lines grafted before is reused: the same lines, at other lines
// of other documents, and after more distinct lines than are remembered, give
// the tree a parse of each edited text gives.
TEST(Graft, TheSameLinesAgainLandWhereTheyStand) {
  const std::vector<std::string> pieces = {"  x: 1\n  y:\n    - a\n", "  z: {k: v}\n"};
  for (int round = 0; round < 3; ++round) {
    for (std::uint32_t first_line : {0u, 7u, 1000u}) {
      for (int filler = 0; filler < 20; ++filler) {
        std::string base = "top: 0\na:\n";
        for (int i = 0; i <= filler % 5; ++i)
          base += "  k" + std::to_string(i) + ": " + std::to_string(i) + "\n";
        base += "b: 2\n";
        Tree tree = parse_document(base, first_line);
        // Distinct lines now and then, so that remembered ones are forgotten.
        std::string lines = pieces[static_cast<std::size_t>(filler) % pieces.size()];
        if (round == 1) lines += "  r" + std::to_string(filler) + ": true\n";
        auto at = static_cast<std::uint32_t>(base.rfind("b: 2"));
        Insertion in{tree.root().get("a").id(), static_cast<std::size_t>(filler % 5 + 1), at,
                     lines};
        std::string edited = base.substr(0, at) + lines + base.substr(at);
        std::optional<Tree> grafted = graft(tree, edited, {&in, 1});
        ASSERT_TRUE(grafted) << edited;
        EXPECT_EQ(tree_difference(*grafted, parse_document(edited, first_line)), "") << edited;
      }
    }
  }
}

TEST(TreeDifference, NamesWhereTreesDiffer) {
  Tree a = parse_document("a:\n  b: 1\n");
  Tree b = parse_document("a:\n  b: 2\n");
  Tree c = parse_document("a:\n  b:  1\n");
  EXPECT_EQ(tree_difference(a, a), "");
  EXPECT_EQ(tree_difference(a, b), "line 2, column 6 / line 2, column 6: value");
  EXPECT_NE(tree_difference(a, c).find("span"), std::string::npos);
}

}  // namespace
}  // namespace archfit::yaml
