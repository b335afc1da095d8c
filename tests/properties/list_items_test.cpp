// A list's items are analysed and edited one by one, as documents of their
// own (docs/architecture.md, "Lists"). Law: that gives what reading the whole
// list as one document gives, byte for byte and finding for finding.
#include <iostream>
#include <random>

#include <gtest/gtest.h>

#include <archfit/run/item_stream.hpp>
#include <archfit/yaml/list_items.hpp>

#include "properties/generator.hpp"
#include "support/engine.hpp"

namespace archfit::testing {
namespace {

std::string lock_for(const std::vector<std::string>& images, std::mt19937_64& rng) {
  const char* sets[] = {R"("linux/amd64", "linux/arm64")", R"("linux/amd64")", R"("linux/arm64")"};
  std::string json = "{\"version\": 1, \"images\": {";
  for (std::size_t i = 0; i < images.size(); ++i) {
    json += (i > 0 ? ", " : "") + std::string("\"") + images[i] + "\": {\"platforms\": [" +
            sets[std::uniform_int_distribution<int>(0, 2)(rng)] + "]}";
  }
  return json + "}}";
}

std::string describe(const findings::Finding& f) {
  return f.rule + " " + std::to_string(f.document) + ":" + std::to_string(f.line) + ":" +
         std::to_string(f.column) + "-" + std::to_string(f.end_line) + ":" +
         std::to_string(f.end_column) + " " + yaml::field_text(f.field_path) + " " + f.message;
}

std::vector<std::string> described(const std::vector<findings::Finding>& all) {
  std::vector<std::string> out;
  for (const findings::Finding& f : all)
    out.push_back(describe(f));
  return out;
}

// What fix, lint and --remove give for `doc`, a list read item by item, is
// what they give for it read whole.
void expect_read_alike(Engine& engine, const std::string& doc) {
  for (run::Task task : {run::Task::Lint, run::Task::Fix, run::Task::Remove}) {
    std::string by_items = engine.output({run::Input::in_memory("l.yaml", doc)}, task);
    std::vector<std::string> items = described(engine.findings);
    run::read_lists_by_items(false);
    std::string whole = engine.output({run::Input::in_memory("l.yaml", doc)}, task);
    run::read_lists_by_items(true);
    ASSERT_EQ(by_items, whole) << "task " << static_cast<int>(task);
    std::vector<std::string> read_whole = described(engine.findings);
    for (std::size_t k = 0; k < items.size() || k < read_whole.size(); ++k) {
      ASSERT_EQ(k < items.size() ? items[k] : "-", k < read_whole.size() ? read_whole[k] : "-")
          << "task " << static_cast<int>(task) << ", finding " << k;
    }
  }
}

TEST(ListItems, AreFixedAndReportedAsTheWholeListIs) {
  std::size_t by_items = 0;
  for (std::uint64_t seed = 0; seed < 40; ++seed) {
    ManifestGenerator gen(0x115700u + seed, 8);
    std::mt19937_64 rng(seed);
    Engine engine(lock_for(gen.images(), rng));
    for (std::size_t i = 0; i < 120; ++i) {
      std::string doc = gen.document(i);
      if (doc.find("\nkind: List") == std::string::npos) continue;
      std::string body = doc.substr(doc.find('\n') + 1);  // after "---"
      if (!yaml::list_items(body)) continue;
      ++by_items;
      SCOPED_TRACE("seed " + std::to_string(seed) + ", document " + std::to_string(i) + ":\n" +
                   doc);
      expect_read_alike(engine, doc);
    }
  }
  // Enough lists were read item by item for the law to say something.
  std::cout << "[ lists    ] " << by_items << " lists read item by item and whole alike\n";
  EXPECT_GE(by_items, 20u);
}

TEST(ListItems, OnOneLongLineAreReadAsTheWholeListIs) {
  // Items far along one line are cut out without their columns; their
  // findings get them back.
  Engine engine;
  std::string doc = "{apiVersion: v1, kind: List, items: [";
  for (int i = 0; i < 40; ++i) {
    doc += (i > 0 ? ", " : "") + std::string("{apiVersion: apps/v1, kind: Deployment, metadata: ") +
           "{name: web-" + std::to_string(i) + "}, spec: {template: {spec: {containers: " +
           "[{name: c, image: " + (i % 2 ? "amd64only:1" : "both:1") + "}]}}}}";
  }
  doc += "]}\n";
  ASSERT_GT(doc.size(), 2 * run::ItemStream::kMostPad);
  ASSERT_TRUE(yaml::list_items(doc));
  expect_read_alike(engine, doc);
  engine.output({run::Input::in_memory("l.yaml", doc)}, run::Task::Lint);
  EXPECT_GE(engine.findings.size(), 40u);
}

TEST(ListItems, WithAnchorsOfTheirOwnAreReadAsTheWholeListIs) {
  Engine engine;
  std::string doc =
      "apiVersion: v1\nkind: List\nmetadata: &meta {resourceVersion: \"\"}\nitems:\n"
      "- apiVersion: apps/v1\n  kind: Deployment\n  metadata: {name: a}\n  spec:\n"
      "    template:\n      metadata: {labels: &l {app: a}}\n      spec:\n"
      "        containers: [{name: c, image: amd64only:1}]\n"
      "    selector: {matchLabels: *l}\n"
      "- apiVersion: apps/v1\n  kind: Deployment\n  metadata: {name: b}\n  spec:\n"
      "    template:\n      spec:\n        containers: [{name: c, image: both:1}]\n";
  ASSERT_TRUE(yaml::list_items(doc));
  expect_read_alike(engine, doc);
  // An alias to another item's anchor: read whole.
  std::string shared = doc + "      nodeSelector: *l\n";
  EXPECT_FALSE(yaml::list_items(shared));
}

TEST(ListItems, AreFoundWhereTheListHasThem) {
  std::string block =
      "apiVersion: v1\nkind: List\nmetadata: {resourceVersion: \"\"}\nitems:\n"
      "- apiVersion: v1\n  kind: Pod\n  metadata: {name: a}\n"
      "  # a comment\n\n"
      "- {apiVersion: v1, kind: Pod}\n";
  std::optional<yaml::ListItems> found = yaml::list_items(block);
  ASSERT_TRUE(found);
  const std::vector<yaml::ListItem>& items = found->items;
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(block.substr(items[0].begin, items[0].end - items[0].begin),
            "apiVersion: v1\n  kind: Pod\n  metadata: {name: a}");
  EXPECT_FALSE(items[0].flow);
  EXPECT_EQ(items[0].line, 4u);
  EXPECT_EQ(items[0].column, 2u);
  EXPECT_EQ(block.substr(items[1].begin, items[1].end - items[1].begin),
            "{apiVersion: v1, kind: Pod}");
  EXPECT_TRUE(items[1].flow);
  EXPECT_FALSE(found->json);
  std::string flow = "{apiVersion: v1, kind: PodList, items: [{kind: Pod}, {kind: Pod,\n x: 1}]}";
  found = yaml::list_items(flow);
  ASSERT_TRUE(found);
  ASSERT_EQ(found->items.size(), 2u);
  EXPECT_EQ(flow.substr(found->items[1].begin, found->items[1].end - found->items[1].begin),
            "{kind: Pod,\n x: 1}");
  EXPECT_TRUE(yaml::list_items(R"({"kind": "List", "items": [{"kind": "Pod"}]})")->json);
  // Read whole: not a list, an anchor, a key twice, an item that is no object.
  for (const char* whole :
       {"kind: Deployment\nitems: [{a: 1}]\n", "kind: List\nitems:\n- &a {kind: Pod}\n- *a\n",
        "kind: List\nkind: List\nitems: []\n", "kind: List\nitems: [1]\n",
        "kind: List\nitems: {a: 1}\n", "kind: List\n"}) {
    EXPECT_FALSE(yaml::list_items(whole)) << whole;
  }
}

}  // namespace
}  // namespace archfit::testing
