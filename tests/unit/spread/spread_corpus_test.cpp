// Round trips over the corpus with a spread for every Deployment, given three
// ways (a catch-all profile of the configuration, split or by topology
// spread; a PodDistributor naming each Deployment): remove(fix(x)) == x byte
// for byte, fix(fix(x)) == fix(x).
#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <archfit/image/platform_set.hpp>
#include <archfit/manifest/discover.hpp>
#include <archfit/run/run.hpp>
#include <archfit/yaml/parse.hpp>
#include <archfit/yaml/stream.hpp>

#include "support/corpus.hpp"
#include "support/engine.hpp"

// A named namespace: the unity build puts this file beside run_test.cpp.
namespace archfit::spread::spread_corpus_tests {

using run::Input;
using run::Task;

std::string distributors_for(const std::string& text) {
  std::string out;
  for (const yaml::DocumentText& doc : yaml::split_stream(text)) {
    if (!doc.has_content) continue;
    yaml::Tree tree =
        yaml::parse_document(doc.text, doc.first_line, archfit::testing::as_written());
    for (const manifest::Workload& w : manifest::discover(tree, manifest::KindTable::defaults())) {
      if (w.kind != "Deployment" || !w.path.empty()) continue;
      out +=
          "---\napiVersion: versprei.versprei.io/v1beta1\nkind: PodDistributor\nmetadata:\n  name: "
          "d\n";
      if (!w.namespace_name.empty()) out += "  namespace: " + w.namespace_name + "\n";
      out +=
          "spec:\n  distribution:\n  - {nodeLabel: archfit.io/test-group=a, weight: 1}\n"
          "  - {nodeLabel: archfit.io/test-group=b, weight: 2}\n"
          "  target: {apiVersion: apps/v1, kind: Deployment, name: '" +
          w.name + "'}\n";
    }
  }
  return out;
}

// Checks the laws on every corpus file archfit reads (a key given twice is
// refused, see tests/unit/cli), with `extra` documents for each file beside
// it; returns how many files fix changed to hold `marker`.
std::size_t check_laws(archfit::testing::Engine& e,
                       const std::function<std::string(const std::string&)>& extra,
                       const std::string& marker = "archfit.io/split: ") {
  std::size_t split = 0;
  for (const auto& path : archfit::testing::corpus_files()) {
    std::string name = path.filename().string();
    const auto& duplicates = archfit::testing::corpus_duplicate_keys();
    if (std::any_of(duplicates.begin(), duplicates.end(),
                    [&name](const auto& d) { return name == d.file; })) {
      continue;
    }
    std::string x = archfit::testing::read(path);
    std::string beside = extra(x);
    auto run = [&](const std::string& text, Task task) {
      std::vector<Input> inputs{Input::in_memory(name, text)};
      if (!beside.empty()) inputs.push_back(Input::in_memory("~beside.yaml", beside));
      return e.output(inputs, task);
    };
    std::string once = run(x, Task::Fix);
    split += once.find(marker) != std::string::npos;
    EXPECT_EQ(run(once, Task::Fix), once) << name;
    EXPECT_EQ(run(once, Task::Remove), x) << name;
  }
  return split;
}

const char* const kNoImages = R"({"version": 1, "images": {}})";

TEST(CorpusSpread, APodDistributorForEveryDeploymentKeepsTheLaws) {
  archfit::testing::Engine e(kNoImages);
  EXPECT_GE(check_laws(e, distributors_for), 5u);
}

TEST(CorpusSpread, ACatchAllProfileKeepsTheLaws) {
  archfit::testing::Engine e(kNoImages);
  spread::SpreadProfile all;
  all.name = "all";
  all.assigns = true;  // workloads: {}
  all.groups = {{"archfit.io/test-group", "a", "", {1, 1}},
                {"archfit.io/test-group", "b", "", {0, 2}}};
  e.config.node_pools.spread_profiles.push_back(all);
  EXPECT_GE(check_laws(e, [](const std::string&) { return std::string(); }), 5u);
}

TEST(CorpusSpread, ACatchAllTopologySpreadKeepsTheLaws) {
  archfit::testing::Engine e(kNoImages);
  // Every image assumed to run everywhere, so that placement (which writes
  // the spread) places every template.
  e.config.fallback_platforms = image::PlatformSet::parse("linux/amd64,linux/arm64");
  e.config.node_pools.fix = true;
  spread::SpreadProfile all;
  all.name = "all";
  all.assigns = true;
  all.realisation = spread::Realisation::TopologySpread;
  all.groups = {{"", "", "od", {1, 1}}, {"", "", "spot", {0, 3}}};
  e.config.node_pools.spread_profiles.push_back(all);
  const std::string pools =
      "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: od}\nspec: {}\n---\n"
      "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: spot}\nspec: {}\n";
  EXPECT_GE(
      check_laws(
          e, [&pools](const std::string&) { return pools; }, "topologyKey: spread.archfit.io/all"),
      10u);
}

}  // namespace archfit::spread::spread_corpus_tests
