#include <gtest/gtest.h>

#include <archfit/base/error.hpp>
#include <archfit/yaml/parse.hpp>
#include <archfit/yaml/value.hpp>

namespace archfit::yaml {
namespace {

Value read(const std::string& text) {
  Tree tree = parse_document(text);
  return to_value(tree.root());
}

TEST(Value, ScalarsAsKubernetesReadsThem) {
  Value v = read("a: yes\nb: '1'\nc: 0x1F\nd: 1.5\ne: ~\nf: text\ng: !!str 12\nh: 1e3\n");
  EXPECT_EQ(to_json(v),
            R"({"a":true,"b":"1","c":31,"d":1.5,"e":null,"f":"text","g":"12","h":1000})");
}

TEST(Value, MappingsCompareWithoutOrder) {
  EXPECT_EQ(read("a: 1\nb: [x, y]\n"), read("b: [x, y]\na: 1\n"));
  EXPECT_FALSE(read("a: 1\nb: [x, y]\n") == read("a: 1\nb: [y, x]\n"));
  EXPECT_FALSE(read("a: 1\n") == read("a: '1'\n"));
  EXPECT_EQ(read("a: 1\n"), read("a: 1.0\n"));
}

TEST(Value, StylesDoNotMatter) {
  EXPECT_EQ(read("a:\n  b: |\n    x\n  c: [1, 2]\n"), read("{a: {b: \"x\\n\", c: [1, 2]}}"));
}

TEST(Value, AliasesAndMergeKeys) {
  Value v = read(
      "base: &b {cpu: 1, mem: 2}\n"
      "use:\n  <<: *b\n  mem: 3\n"
      "many:\n  <<: [{x: 1}, {x: 2, z: 2}]\n"
      "copy: *b\n");
  EXPECT_EQ(to_json(*v.find("use")), R"({"mem":3,"cpu":1})");
  EXPECT_EQ(to_json(*v.find("many")), R"({"x":1,"z":2})");
  EXPECT_EQ(*v.find("copy"), *v.find("base"));
}

TEST(Value, KeysBecomeStrings) {
  Value v = read("1: a\ntrue: b\n~: c\n? [x]\n: d\n");
  EXPECT_EQ(to_json(v), R"({"1":"a","true":"b","null":"c","[\"x\"]":"d"})");
}

TEST(Value, AliasBombsAreStopped) {
  std::string bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n";
  char prev = 'a';
  for (char c = 'b'; c <= 'j'; ++c) {
    bomb += std::string(1, c) + ": &" + c + " [";
    for (int i = 0; i < 10; ++i)
      bomb += std::string(i ? ", *" : "*") + prev;
    bomb += "]\n";
    prev = c;
  }
  Tree tree = parse_document(bomb);
  Limits limits;
  limits.max_alias_expansion = 100000;
  EXPECT_THROW(to_value(tree.root(), limits), Error);
}

// The limit is on what aliases add: a document written out in full is
// read whatever its size, one that expands past the limit is not.
TEST(Value, TheAliasLimitCountsExpansionNotWrittenNodes) {
  std::string big = "items:\n";
  for (int i = 0; i < 3000; ++i)
    big += "- [a, b, c]\n";
  Tree tree = parse_document(big);
  Limits limits;
  limits.max_alias_expansion = 1000;
  ASSERT_GT(tree.node_count(), 10000u);
  EXPECT_EQ(to_value(tree.root(), limits).find("items")->items().size(), 3000u);
  EXPECT_TRUE(equals(tree.root(), to_value(tree.root()), limits));
  std::string aliases = "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: [*a";
  for (int i = 0; i < 200; ++i)
    aliases += ", *a";
  aliases += "]\n";
  Tree aliased = parse_document(aliases);  // 2,225 values from 216 written; it reads `aliases`
  try {
    to_value(aliased.root(), limits);
    ADD_FAILURE() << "an expansion past the limit was read";
  } catch (const Error& e) {
    EXPECT_EQ(e.message(), "cannot read YAML: aliases expand to more than 1000 nodes");
  }
}

// count_values counts what to_value makes, and stops past `most` without
// walking on (nor holding more than `most` nodes to walk).
TEST(Value, CountValuesIsBounded) {
  Tree tree = parse_document("a: &a {k: [1, 2]}\nb: *a\nc: [x, y]\n");
  // root; a, its k, 1, 2; b (the same four); c, x, y.
  EXPECT_EQ(count_values(tree.root(), 100), 12u);
  EXPECT_EQ(count_values(tree.root(), 5), 6u);
  std::string wide = "[";
  for (int i = 0; i < 100000; ++i)
    wide += "x, ";
  wide += "x]\n";
  Tree large = parse_document(wide);
  EXPECT_EQ(count_values(large.root(), 10), 11u);
  EXPECT_EQ(count_values(large.root(), 1000000), 100002u);
}

TEST(Value, SetFindErase) {
  Value m = Value::mapping();
  m.set("a", Value::integer(1));
  m.set("b", Value::string("x"));
  m.set("a", Value::integer(2));
  EXPECT_EQ(to_json(m), R"({"a":2,"b":"x"})");
  EXPECT_TRUE(m.erase("a"));
  EXPECT_FALSE(m.erase("a"));
  EXPECT_EQ(m.find("a"), nullptr);
  EXPECT_EQ(to_json(m), R"({"b":"x"})");
}

// equals(node, v) answers exactly what to_value(node) == v does, for every
// pair of these documents: plain ones (compared directly) and ones with
// aliases, merge keys, duplicate keys and non-string keys (converted).
TEST(Value, EqualsAgreesWithConversion) {
  const std::vector<std::string> docs = {
      "a: 1\nb: [x, y]\n",
      "b: [x, y]\na: 1\n",
      "a: 1.0\nb: [x, y]\n",
      "a: '1'\nb: [x, y]\n",
      "a: 1\nb: [y, x]\n",
      "a: 1\nb: [x]\n",
      "a: 1\nb: [x, y]\nc: ~\n",
      "a: 1\nc: [x, y]\n",
      "a: 1\na: 2\n",
      "a: 2\nb: [x, y]\n",
      "a: 2\n",
      "{a: 2, b: 3}\n",
      "base: &b [x, y]\na: 1\nb: *b\n",
      "a: 1\nb: [x, y]\nbase: [x, y]\n",
      "m: &m {a: 1}\n<<: *m\nb: [x, y]\n",
      "1: a\ntrue: b\n",
      "'1': a\n'true': b\n",
      "a: yes\nb: on\n",
      "a: true\nb: true\n",
      "a: 18446744073709551615\n",
      "a: 1.8446744073709552e19\n",
      "a: .nan\n",
      "a: .NaN\n",
      "a: !!str 12\n",
      "a: '12'\n",
      "a: 12\n",
      "[1, 2.0, x, ~, true]\n",
      "[1.0, 2, x, null, yes]\n",
      "- {a: 1}\n- [b]\n",
      "x\n",
      "~\n",
      "? [x]\n: d\n",
      "\"[\\\"x\\\"]\": d\n",
  };
  // The data of a document with a key twice is still defined (the last one
  // wins), though archfit refuses such input.
  Limits lenient;
  lenient.reject_duplicate_keys = false;
  std::vector<Tree> trees;
  for (const std::string& doc : docs)
    trees.push_back(parse_document(doc, 0, lenient));
  for (std::size_t i = 0; i < trees.size(); ++i) {
    for (std::size_t j = 0; j < trees.size(); ++j) {
      Value v = to_value(trees[j].root());
      EXPECT_EQ(equals(trees[i].root(), v), to_value(trees[i].root()) == v)
          << "node: " << docs[i] << "value: " << docs[j];
    }
  }
  EXPECT_TRUE(equals(NodeRef(), Value()));
  EXPECT_FALSE(equals(NodeRef(), Value::string("")));
}

// JSON has no infinity or NaN: YAML's .inf and .nan become null, so that a
// finding's current value is always JSON.
TEST(ValueJson, NonFiniteFloatsAreNull) {
  Tree tree = parse_document("a: .inf\nb: -.Inf\nc: .nan\nd: 1.5\n");
  EXPECT_EQ(to_json(to_value(tree.root())), R"({"a":null,"b":null,"c":null,"d":1.5})");
}

}  // namespace
}  // namespace archfit::yaml
