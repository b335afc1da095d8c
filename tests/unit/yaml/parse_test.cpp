#include <string>

#include <gtest/gtest.h>

#include <archfit/base/error.hpp>
#include <archfit/yaml/parse.hpp>

namespace archfit::yaml {
namespace {

TEST(Parse, ScalarSpansAndValues) {
  std::string text = "a: 1\nb: 'two'\nc: \"th\\u0072ee\"\n";
  Tree tree = parse_document(text);
  NodeRef root = tree.root();
  ASSERT_TRUE(root.is_mapping());
  EXPECT_EQ(root.size(), 3u);
  EXPECT_EQ(root.get("a").scalar(), "1");
  EXPECT_EQ(root.get("a").text(), "1");
  EXPECT_EQ(root.get("b").scalar(), "two");
  EXPECT_EQ(root.get("b").text(), "'two'");
  EXPECT_EQ(root.get("b").style(), Style::SingleQuoted);
  EXPECT_EQ(root.get("c").scalar(), "three");
  EXPECT_EQ(root.get("c").text(), "\"th\\u0072ee\"");
  EXPECT_EQ(root.get("c").style(), Style::DoubleQuoted);
  EXPECT_EQ(root.get("c").line(), 3u);
  EXPECT_EQ(root.get("c").column(), 4u);
  EXPECT_FALSE(root.get("missing"));
}

TEST(Parse, BlockCollectionsEndAtTheirLastChild) {
  std::string text =
      "spec:\n"
      "  containers:\n"
      "  - name: a\n"
      "    image: x\n"
      "\n"
      "  # trailing comment\n"
      "kind: Pod\n";
  Tree tree = parse_document(text);
  NodeRef spec = tree.root().get("spec");
  ASSERT_TRUE(spec.is_mapping());
  EXPECT_EQ(spec.style(), Style::Block);
  EXPECT_EQ(spec.text(), "containers:\n  - name: a\n    image: x");
  NodeRef containers = spec.get("containers");
  ASSERT_TRUE(containers.is_sequence());
  EXPECT_EQ(containers.text(), "- name: a\n    image: x");
  EXPECT_EQ(containers.column(), 3u);
  EXPECT_EQ(containers.item(0).text(), "name: a\n    image: x");
  EXPECT_EQ(containers.item(0).column(), 5u);
}

TEST(Parse, FlowCollections) {
  std::string text = "args: [\"--a\", b]\nres: {cpu: 100m, memory: 1Gi}\nempty: {}\n";
  Tree tree = parse_document(text);
  NodeRef args = tree.root().get("args");
  EXPECT_EQ(args.style(), Style::Flow);
  EXPECT_EQ(args.text(), "[\"--a\", b]");
  EXPECT_EQ(args.size(), 2u);
  EXPECT_EQ(args.item(0).scalar(), "--a");
  EXPECT_EQ(tree.root().get("res").text(), "{cpu: 100m, memory: 1Gi}");
  EXPECT_EQ(tree.root().get("res").get("memory").scalar(), "1Gi");
  EXPECT_EQ(tree.root().get("empty").size(), 0u);
  EXPECT_EQ(tree.root().get("empty").text(), "{}");
}

TEST(Parse, BlockScalars) {
  std::string text = "a: |\n  line one\n  line two\n\nb: >-\n  folded\n  text\nc: x\n";
  Tree tree = parse_document(text);
  EXPECT_EQ(tree.root().get("a").scalar(), "line one\nline two\n");
  EXPECT_EQ(tree.root().get("a").style(), Style::Literal);
  EXPECT_EQ(tree.root().get("b").scalar(), "folded text");
  EXPECT_EQ(tree.root().get("b").style(), Style::Folded);
  // A block scalar ends at the start of the line after its content.
  NodeRef a = tree.root().get("a");
  EXPECT_EQ(text.substr(a.span().end, 2), "b:");
}

TEST(Parse, NonAsciiOffsetsAreBytes) {
  std::string text = "name: \"é€\"\nnext: ü\nlast: plain\n";
  Tree tree = parse_document(text);
  EXPECT_EQ(tree.root().get("name").text(), "\"é€\"");
  EXPECT_EQ(tree.root().get("name").scalar(), "é€");
  EXPECT_EQ(tree.root().get("next").text(), "ü");
  EXPECT_EQ(tree.root().get("last").text(), "plain");
  EXPECT_EQ(tree.root().get("next").column(), 7u);
}

TEST(Parse, CrlfAndBom) {
  std::string text = "\xEF\xBB\xBFkind: Pod\r\nmetadata:\r\n  name: x\r\n";
  Tree tree = parse_document(text, 10);
  NodeRef name = tree.root().get("metadata").get("name");
  EXPECT_EQ(name.text(), "x");
  EXPECT_EQ(name.line(), 13u);
  EXPECT_EQ(tree.root().get("kind").text(), "Pod");
  EXPECT_EQ(tree.root().span().begin, 3u);
}

TEST(Parse, AnchorsAliasesAndTags) {
  std::string text = "base: &b {x: 1}\nuse: *b\nt: !!str 12\nlocal: !thing y\n";
  Tree tree = parse_document(text);
  NodeRef base = tree.root().get("base");
  EXPECT_EQ(base.anchor(), "b");
  NodeRef use = tree.root().get("use");
  ASSERT_TRUE(use.is_alias());
  EXPECT_EQ(use.target(), base);
  EXPECT_EQ(use.resolved().get("x").scalar(), "1");
  EXPECT_EQ(tree.root().get("t").tag(), "tag:yaml.org,2002:str");
  EXPECT_EQ(tree.root().get("local").tag(), "!thing");
  EXPECT_EQ(tree.root().get("local").scalar(), "y");
}

TEST(Parse, DuplicateKeysAreRefusedNamingBothPlaces) {
  for (const char* doc : {"a: 1\nb: 2\na: 3\n", "x:\n  spec: 1\n  spec: 2\n",
                          "{a: 1, b: 2, a: 3}\n", "- {image: x, image: y}\n"}) {
    try {
      parse_document(doc, 10);
      ADD_FAILURE() << "accepted " << doc;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Input);
      EXPECT_NE(e.message().find("duplicate key"), std::string::npos) << e.what();
      EXPECT_NE(e.message().find("first at line 1"), std::string::npos) << e.what();
      EXPECT_GE(e.where().line, 11u) << e.what();
    }
  }
  // Twenty keys take the sorted path; the second "k7" is on line 21.
  std::string many;
  for (int i = 0; i < 20; ++i)
    many += "k" + std::to_string(i) + ": v\n";
  many += "k7: again\n";
  try {
    parse_document(many);
    ADD_FAILURE() << "accepted a duplicate among twenty keys";
  } catch (const Error& e) {
    EXPECT_EQ(e.where().line, 21u) << e.what();
    EXPECT_NE(e.message().find("\"k7\" (first at line 8, column 1)"), std::string::npos)
        << e.what();
  }
  // Equal keys in different mappings are fine, and so is a merge key beside
  // an explicit one.
  EXPECT_NO_THROW(parse_document("a: {x: 1}\nb: {x: 2}\nc: &c {y: 1}\nd: {<<: *c, y: 2}\n"));
}

TEST(Parse, DuplicateKeysCanBeReadWhenAsked) {
  Limits lenient;
  lenient.reject_duplicate_keys = false;
  Tree tree = parse_document("a: 1\na: 2\n", 0, lenient);
  EXPECT_EQ(tree.root().get("a").scalar(), "2");
  EXPECT_EQ(tree.root().find("a"), 1u);
}

TEST(Parse, EmptyValuesAndDocuments) {
  Tree tree = parse_document("a:\nb: ~\n");
  EXPECT_EQ(tree.root().get("a").scalar(), "");
  EXPECT_TRUE(tree.root().get("a").is_scalar());
  Tree empty = parse_document("# only a comment\n");
  EXPECT_FALSE(empty.root());
  Tree marker = parse_document("---\n");
  ASSERT_TRUE(marker.root());
  EXPECT_EQ(marker.root().scalar(), "");
}

struct BadCase {
  const char* name;
  std::string text;
  std::uint32_t line;
  std::uint32_t column;
  const char* message;
};

class ParseErrors : public ::testing::TestWithParam<BadCase> {};

TEST_P(ParseErrors, NameLineColumnAndProblem) {
  const BadCase& c = GetParam();
  try {
    parse_document(c.text, 4);
    FAIL() << "no error for " << c.text;
  } catch (const Error& e) {
    // What libyaml cannot read stops its file; a repeated key (above) is
    // confined to its document.
    EXPECT_EQ(e.kind(), ErrorKind::Syntax);
    EXPECT_EQ(e.where().line, c.line) << e.what();
    EXPECT_EQ(e.where().column, c.column) << e.what();
    EXPECT_NE(e.message().find(c.message), std::string::npos) << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(
    Cases, ParseErrors,
    ::testing::Values(
        BadCase{"mapping_in_scalar", "a: b: c\n", 5, 5, "mapping values are not allowed"},
        BadCase{"bad_indent", "a:\n  b: 1\n c: 2\n", 7, 2, "did not find expected key"},
        BadCase{"unclosed_flow", "a: [1, 2\n", 6, 1, "did not find expected ',' or ']'"},
        BadCase{"unclosed_quote", "a: \"x\n", 6, 1, "found unexpected end of stream"},
        BadCase{"undefined_alias", "a: *nope\n", 5, 4, "alias *nope"},
        BadCase{"tab_indent", "a:\n\tb: 1\n", 6, 1, "found character that cannot start"}),
    [](const auto& test) { return test.param.name; });

TEST(Parse, ErrorMentionsContext) {
  try {
    parse_document("a:\n  b: 1\n c: 2\n");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("while parsing a block mapping that starts at line 1"),
              std::string::npos)
        << e.what();
  }
}

TEST(Parse, DepthLimit) {
  std::string deep(600, '[');
  Limits limits;
  limits.max_depth = 512;
  try {
    parse_document(deep, 0, limits);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(e.message().find("nesting deeper than 512"), std::string::npos) << e.what();
    EXPECT_EQ(e.where().column, 513u);
  }
}

TEST(Parse, SizeLimit) {
  Limits limits;
  limits.max_document_bytes = 8;
  EXPECT_THROW(parse_document("a: 123456789\n", 0, limits), Error);
}

// A path of keys read as Kubernetes reads it: through aliases and merge keys;
// null where a step is missing or lands on something that is not a mapping.
TEST(LookupPath, FollowsAliasesAndMergeKeysAndStopsAtNonMappings) {
  Tree tree =
      parse_document("base: &b {spec: {replicas: 3}}\nobj:\n  <<: *b\n  meta: *b\n  list: [1]\n");
  EXPECT_EQ(lookup_path(tree.root(), {"obj", "spec", "replicas"}).scalar(), "3");
  EXPECT_EQ(lookup_path(tree.root(), {"obj", "meta", "spec", "replicas"}).scalar(), "3");
  EXPECT_FALSE(lookup_path(tree.root(), {"obj", "list", "x"}));
  EXPECT_FALSE(lookup_path(tree.root(), {"obj", "none"}));
  EXPECT_EQ(lookup_path(tree.root(), {}), tree.root());
}

}  // namespace
}  // namespace archfit::yaml
