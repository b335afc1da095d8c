// Round trips over the corpus with a spread for every Deployment (a
// PodDistributor naming each, the catch-all case): remove(fix(x)) == x byte
// for byte, fix(fix(x)) == fix(x), and every split adds up to the replicas.
#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <archfit/base/error.hpp>
#include <archfit/cache/lock_file.hpp>
#include <archfit/manifest/discover.hpp>
#include <archfit/placement/config.hpp>
#include <archfit/resolve/resolver.hpp>
#include <archfit/run/run.hpp>
#include <archfit/yaml/parse.hpp>
#include <archfit/yaml/stream.hpp>

#include "support/corpus.hpp"

// A named namespace: the unity build puts this file beside run_test.cpp.
namespace archfit::run::spread_corpus_tests {

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

TEST(CorpusSpread, RemoveGivesTheBytesBackAndFixIsIdempotent) {
  placement::Config config = placement::Config::defaults();
  resolve::Sources sources;
  sources.offline = true;
  resolve::Resolver resolver{
      resolve::Settings(),
      cache::LockFile::parse(R"({"version": 1, "images": {}})", "archfit.lock"), "archfit.lock",
      sources};
  RunSink sink;
  std::size_t refused = 0;
  sink.finding = [&refused](const placement::Finding& f) { refused += f.rule == "spread-refused"; };
  auto run = [&](const std::string& name, const std::string& text, const std::string& extra,
                 Task task) {
    return run_pipeline(
               {Input::in_memory(name, text), Input::in_memory("~distributors.yaml", extra)},
               config, resolver, task, sink)
        .files[0]
        .output();
  };
  std::size_t files = 0, split = 0;
  for (const auto& path : archfit::testing::corpus_files()) {
    std::string name = path.filename().string();
    bool duplicate = std::any_of(archfit::testing::corpus_duplicate_keys().begin(),
                                 archfit::testing::corpus_duplicate_keys().end(),
                                 [&name](const auto& d) { return name == d.file; });
    if (duplicate) continue;  // archfit refuses a key given twice (tests/unit/cli)
    std::string x = archfit::testing::read(path);
    std::string extra = distributors_for(x);
    if (extra.empty()) continue;
    ++files;
    std::string once = run(name, x, extra, Task::Fix);
    split += once.find("archfit.io/split: ") != std::string::npos;
    EXPECT_EQ(run(name, once, extra, Task::Fix), once) << name;
    EXPECT_EQ(run(name, once, extra, Task::Remove), x) << name;
  }
  EXPECT_GE(files, 5u);
  EXPECT_GE(split, 5u);
}

// The same with a catch-all spread profile of the configuration.
TEST(CorpusSpread, ACatchAllProfileKeepsTheLaws) {
  placement::Config config = placement::Config::defaults();
  pools::SpreadProfile all;
  all.name = "all";
  all.assigns = true;  // workloads: {}
  all.groups = {{"archfit.io/test-group", "a", "", {1, 1}},
                {"archfit.io/test-group", "b", "", {0, 2}}};
  config.node_pools.spread_profiles.push_back(all);
  resolve::Sources sources;
  sources.offline = true;
  resolve::Resolver resolver{
      resolve::Settings(),
      cache::LockFile::parse(R"({"version": 1, "images": {}})", "archfit.lock"), "archfit.lock",
      sources};
  RunSink sink;
  sink.finding = [](const placement::Finding&) {};
  auto run = [&](const std::string& name, const std::string& text, Task task) {
    return run_pipeline({Input::in_memory(name, text)}, config, resolver, task, sink)
        .files[0]
        .output();
  };
  std::size_t split = 0;
  for (const auto& path : archfit::testing::corpus_files()) {
    std::string name = path.filename().string();
    bool duplicate = std::any_of(archfit::testing::corpus_duplicate_keys().begin(),
                                 archfit::testing::corpus_duplicate_keys().end(),
                                 [&name](const auto& d) { return name == d.file; });
    if (duplicate) continue;
    std::string x = archfit::testing::read(path);
    std::string once = run(name, x, Task::Fix);
    split += once.find("archfit.io/split: ") != std::string::npos;
    EXPECT_EQ(run(name, once, Task::Fix), once) << name;
    EXPECT_EQ(run(name, once, Task::Remove), x) << name;
  }
  EXPECT_GE(split, 5u);
}

}  // namespace archfit::run::spread_corpus_tests
