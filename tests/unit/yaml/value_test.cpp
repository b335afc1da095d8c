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

}  // namespace
}  // namespace archfit::yaml
