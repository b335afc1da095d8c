// Paths: one spelling, read and written alike, and looked up as Kubernetes
// reads the document.
#include <random>
#include <string>

#include <gtest/gtest.h>

#include <archfit/base/error.hpp>
#include <archfit/yaml/parse.hpp>
#include <archfit/yaml/path.hpp>

namespace archfit::yaml {
namespace {

TEST(YamlPath, ReadsKeysIndexesAndQuotedKeys) {
  Path p = parse_path(R"(items[3].metadata.labels["app.kubernetes.io/name"][0])");
  ASSERT_EQ(p.size(), 6u);
  EXPECT_EQ(p[0], PathStep::of("items"));
  EXPECT_EQ(p[1], PathStep::at(3));
  EXPECT_EQ(p[4], PathStep::of("app.kubernetes.io/name"));
  EXPECT_EQ(p[5], PathStep::at(0));
  EXPECT_EQ(parse_path("[2].spec"), (Path{PathStep::at(2), PathStep::of("spec")}));
  EXPECT_TRUE(parse_path("").empty()) << "the root";
}

TEST(YamlPath, RefusesWhatIsNotAPathAndSaysWhy) {
  for (const auto& [text, why] : std::vector<std::pair<std::string, std::string>>{
           {"spec..x", "expected a field name"},
           {"a[x]", "expected a number"},
           {"a[1234567890]", "expected a number"},
           {"a[1", "expected ']'"},
           {R"(a["unterminated)", "expected a quoted key"},
           {"a b", "unexpected text after the path"}}) {
    try {
      parse_path(text);
      ADD_FAILURE() << text << " was read";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Input);
      EXPECT_NE(e.message().find(why), std::string::npos) << e.message();
    }
  }
}

TEST(YamlPath, ReadPathSaysWhereItStopped) {
  Path out;
  std::string why;
  std::size_t stopped = 0;
  EXPECT_EQ(read_path("spec.template[x]", out, &why, &stopped), 0u);
  EXPECT_EQ(why, "expected a number");
  EXPECT_EQ(stopped, 14u);
  out.clear();
  EXPECT_EQ(read_path("spec.x=1", out, &why), 6u) << "a path ends where its grammar does";
}

// format_path and parse_path are each other's inverse, over generated paths
// with keys of every kind (plain, dotted, quoted, unicode, control bytes).
TEST(YamlPath, FormatAndParseAreInverseOverGeneratedPaths) {
  std::mt19937 random(20261126);
  const std::vector<std::string> keys = {
      "spec", "nodeAffinity", "a-b_c",   "x1",          "a.b",  "kubernetes.io/arch", "",
      "1abc", "sp ace",       "q\"uote", "back\\slash", "\x01", "caf\xc3\xa9",        "[0]",
      "-dash"};
  for (int n = 0; n < 2000; ++n) {
    Path p;
    std::size_t steps = 1 + random() % 6;
    for (std::size_t i = 0; i < steps; ++i) {
      if (random() % 3 == 0) {
        p.push_back(PathStep::at(random() % 1000));
      } else {
        p.push_back(PathStep::of(keys[random() % keys.size()]));
      }
    }
    std::string text = format_path(p);
    EXPECT_EQ(parse_path(text), p) << text;
  }
}

TEST(YamlPath, JoinsPathsAsSteps) {
  const Path items = Path{} / "items" / PathStep::at(2);
  const Path spec_template = key_path({"spec", "template"});
  EXPECT_EQ(Path{} + spec_template, spec_template);
  EXPECT_EQ(items + Path{}, items);
  EXPECT_EQ(field_text(items + spec_template), "items[2].spec.template");
  EXPECT_EQ(field_text(Path{PathStep::of("spec")} / PathStep::at(0)), "spec[0]");
}

// Reports show a field as it is written: keys with dots as they are, an
// item by its name quoted; a name is a step of its own, never a key.
TEST(YamlPath, FieldTextSpellsEachKindOfStep) {
  const Path image = key_path({"spec", "containers"}) / PathStep::named("web") / "image";
  EXPECT_EQ(field_text(image), "spec.containers[\"web\"].image");
  const Path annotation = key_path({"metadata", "annotations", "archfit.io/platforms"});
  EXPECT_EQ(field_text(annotation), "metadata.annotations.archfit.io/platforms");
  EXPECT_NE(image, key_path({"spec", "containers", "web", "image"}));
  EXPECT_THROW(format_path(image), Error);  // the record's syntax has no such step
}

TEST(YamlPath, LooksUpAnItemByItsName) {
  Tree tree = parse_document(
      "spec:\n"
      "  containers:\n"
      "  - {name: a, image: \"a:1\"}\n"
      "  - {name: web, image: \"web:1\"}\n");
  const Path image = key_path({"spec", "containers"}) / PathStep::named("web") / "image";
  EXPECT_EQ(lookup(tree.root(), image).scalar(), "web:1");
  EXPECT_FALSE(lookup(tree.root(), key_path({"spec", "containers"}) / PathStep::named("b")));
  Value data = to_value(tree.root());
  ASSERT_NE(lookup(data, image), nullptr);
  EXPECT_EQ(lookup(data, image)->as_string(), "web:1");
}

TEST(YamlPath, LooksUpAsKubernetesReads) {
  Tree tree = parse_document(
      "base: &b {image: x}\n"
      "spec:\n"
      "  containers:\n"
      "  - <<: *b\n"
      "    name: c\n"
      "  labels: {\"a.b\": v}\n");
  EXPECT_EQ(lookup(tree.root(), parse_path("spec.containers[0].image")).scalar(), "x");
  EXPECT_EQ(lookup(tree.root(), parse_path(R"(spec.labels["a.b"])")).scalar(), "v");
  EXPECT_FALSE(lookup(tree.root(), parse_path("spec.containers[1]")));
  EXPECT_FALSE(lookup(tree.root(), parse_path("spec.containers.name")));
  Value v = to_value(tree.root());
  const Value* image = lookup(v, parse_path("spec.containers[0].image"));
  ASSERT_NE(image, nullptr);
  EXPECT_EQ(image->as_string(), "x");
  EXPECT_EQ(lookup(v, parse_path("spec.containers[0].missing")), nullptr);
}

}  // namespace
}  // namespace archfit::yaml
