// Fault isolation as a law, over generated streams (docs/rules.md,
// invalid-document and unreadable-file): a broken document inserted anywhere
// changes nothing, byte for byte, in what lint and fix do to the other
// documents; a file that cannot be read changes nothing in the other files.
#include <algorithm>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include <archfit/run/run.hpp>
#include <archfit/yaml/stream.hpp>

#include "support/engine.hpp"

namespace archfit::run {
namespace {

using archfit::testing::Engine;

std::string deployment(const std::string& name, const std::string& image,
                       const std::string& spec_extra = "") {
  return "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: " + name +
         "\nspec:\n  template:\n    spec:\n" + spec_extra +
         "      containers:\n      - name: app\n        image: " + image + "\n";
}

// Documents that are fine, some of them needing fix, one a pool that every
// template is checked against.
std::string good_document(std::mt19937& rng, int n) {
  const std::string name = "app" + std::to_string(n);
  switch (rng() % 6) {
    case 0:
      return deployment(name, "amd64only:1");
    case 1:
      return deployment(name, "both:1");
    case 2:
      return deployment(name, "both:1", "      nodeSelector: {kubernetes.io/arch: arm64}\n");
    case 3:
      return "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: " + name + "}\ndata: {a: b}\n";
    case 4:
      return "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata:\n  name: " + name +
             "\nspec:\n  template:\n    spec:\n      requirements:\n"
             "      - {key: kubernetes.io/arch, operator: In, values: [arm64, amd64]}\n";
    default:
      return "# a comment\n" +
             deployment(name, "amd64only:1", "      tolerations: [{key: k, operator: Exists}]\n");
  }
}

// Documents with a fault confined to them, or placement the API server
// refuses: each kind archfit meets.
const std::vector<std::string>& broken_documents() {
  static const std::vector<std::string> docs = [] {
    std::string deep = "apiVersion: v1\nkind: ConfigMap\ndata:\n  x: ";
    for (int i = 0; i < 600; ++i)
      deep += "[";
    for (int i = 0; i < 600; ++i)
      deep += "]";
    deep += "\n";
    return std::vector<std::string>{
        // a repeated key, at the top and in a container
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: x\n  name: y\nspec: {}\n",
        deployment("x", "amd64only:1") + "        image: both:1\n",
        // a pool with an operator archfit does not know
        "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: bad}\nspec:\n"
        "  template:\n    spec:\n      requirements:\n"
        "      - {key: kubernetes.io/arch, operator: Foo, values: [arm64]}\n",
        // a PodDistributor without a target
        "apiVersion: versprei.versprei.io/v1\nkind: PodDistributor\nmetadata: {name: d}\n"
        "spec:\n  distribution: [{nodeLabel: a=b, weight: 1}]\n",
        // a pull secret that is not base64
        "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ntype: kubernetes.io/dockerconfigjson\n"
        "data:\n  .dockerconfigjson: '%%%'\n",
        // node affinity and tolerations the API server refuses
        deployment("x", "amd64only:1",
                   "      affinity:\n        nodeAffinity:\n"
                   "          requiredDuringSchedulingIgnoredDuringExecution:\n"
                   "            nodeSelectorTerms:\n            - matchExpressions:\n"
                   "              - {key: kubernetes.io/arch, operator: Foo}\n"),
        deployment("x", "amd64only:1", "      tolerations: 5\n"),
        // fields of the wrong type, which the API server refuses
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: x}\nspec: {template: []}\n",
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: x}\n"
        "spec: {template: {spec: {containers: 5}}}\n",
        "apiVersion: v1\nkind: Pod\nmetadata: {name: x}\nspec: {containers: [web]}\n",
        // nesting deeper than archfit reads
        deep,
    };
  }();
  return docs;
}

struct Outcome {
  std::vector<std::string> documents;  // the output, a document each
  // Each finding as (file, rule, severity, message, resource, field path):
  // lines shift when a document is inserted, nothing else may.
  std::vector<std::tuple<std::string, std::string, int, std::string, std::string, std::string>>
      findings;
};

Outcome run_on(const std::vector<Input>& inputs, Task task) {
  Engine e;
  RunResult r = e.run(inputs, task);
  Outcome out;
  for (const FileResult& file : r.files) {
    const std::string output = file.output();
    for (const yaml::DocumentText& doc : yaml::split_stream(output))
      out.documents.push_back(file.input.name + ": " + std::string(doc.text));
  }
  for (const findings::Finding& f : e.findings) {
    out.findings.emplace_back(f.file, f.rule, static_cast<int>(f.severity), f.message,
                              f.resource.kind + "/" + f.resource.name,
                              yaml::field_text(f.field_path));
  }
  return out;
}

std::string join(const std::vector<std::string>& docs) {
  std::string out;
  for (const std::string& d : docs)
    out += d.empty() || d.ends_with("\n") ? "---\n" + d : "---\n" + d + "\n";
  return out;
}

// Each broken document of the stream `with` (broken_at[i]) is reported by
// lint, as itself.
void expect_each_reported(const std::vector<std::string>& with,
                          const std::vector<bool>& broken_at) {
  Engine e;
  e.run({Input::in_memory("a.yaml", join(with))}, Task::Lint);
  for (std::size_t i = 0; i < with.size(); ++i) {
    if (!broken_at[i]) continue;
    EXPECT_TRUE(std::any_of(e.findings.begin(), e.findings.end(),
                            [&](const findings::Finding& f) { return f.document == i; }))
        << "document " << i << " has no finding:\n"
        << with[i];
  }
}

TEST(FaultIsolationLaw, ABrokenDocumentChangesNothingInTheOthers) {
  std::mt19937 rng(20261126);
  for (int round = 0; round < 160; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    std::vector<std::string> docs;
    int count = 1 + static_cast<int>(rng() % 6);
    for (int i = 0; i < count; ++i)
      docs.push_back(good_document(rng, i));
    const std::string& broken = broken_documents()[rng() % broken_documents().size()];
    std::size_t at = rng() % (docs.size() + 1);
    std::vector<std::string> with = docs;
    with.insert(with.begin() + static_cast<std::ptrdiff_t>(at), broken);
    for (Task task : {Task::Lint, Task::Fix, Task::Remove}) {
      Outcome clean = run_on({Input::in_memory("a.yaml", join(docs))}, task);
      Outcome dirty = run_on({Input::in_memory("a.yaml", join(with))}, task);
      ASSERT_EQ(dirty.documents.size(), clean.documents.size() + 1) << join(with);
      // The broken document is given back as it was.
      EXPECT_EQ(dirty.documents[at], "a.yaml: ---\n" + broken);
      dirty.documents.erase(dirty.documents.begin() + static_cast<std::ptrdiff_t>(at));
      EXPECT_EQ(dirty.documents, clean.documents) << join(with);
      // Its findings are its own: take them out, and what is left is the
      // clean run's, in the same order.
      std::erase_if(dirty.findings, [&](const auto& f) {
        return std::get<1>(f) == "invalid-document" ||
               std::get<4>(f) == "Deployment/x";  // the broken templates' findings
      });
      EXPECT_EQ(dirty.findings, clean.findings) << join(with);
    }
    std::vector<bool> broken_at(with.size(), false);
    broken_at[at] = true;
    expect_each_reported(with, broken_at);
  }
}

// Between 40 and 299 good documents: enough that the threads take them a
// run at a time.
std::vector<std::string> many_good_documents(std::mt19937& rng) {
  std::vector<std::string> docs;
  const int count = 40 + static_cast<int>(rng() % 260);
  for (int i = 0; i < count; ++i)
    docs.push_back(good_document(rng, i));
  return docs;
}

// The same over streams long enough that each thread takes documents a
// chunk at a time and parses them ahead of their analysis (docs/
// performance.md): several broken documents, next to each other or not,
// anywhere among up to 300 good ones, each a fault of its own.
TEST(FaultIsolationLaw, BrokenDocumentsAmongManyChangeNothingInTheOthers) {
  std::mt19937 rng(20261128);
  for (int round = 0; round < 24; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    const std::vector<std::string> docs = many_good_documents(rng);
    std::vector<std::string> with = docs;
    std::vector<bool> broken_at(docs.size(), false);
    const int broken = 1 + static_cast<int>(rng() % 8);
    for (int b = 0; b < broken; ++b) {
      const std::size_t at = rng() % (with.size() + 1);
      with.insert(with.begin() + static_cast<std::ptrdiff_t>(at),
                  broken_documents()[rng() % broken_documents().size()]);
      broken_at.insert(broken_at.begin() + static_cast<std::ptrdiff_t>(at), true);
    }
    for (Task task : {Task::Lint, Task::Fix}) {
      Outcome clean = run_on({Input::in_memory("a.yaml", join(docs))}, task);
      Outcome dirty = run_on({Input::in_memory("a.yaml", join(with))}, task);
      ASSERT_EQ(dirty.documents.size(), with.size());
      std::vector<std::string> others;
      for (std::size_t i = 0; i < with.size(); ++i) {
        if (broken_at[i]) {
          EXPECT_EQ(dirty.documents[i], "a.yaml: ---\n" + with[i]) << "document " << i;
        } else {
          others.push_back(dirty.documents[i]);
        }
      }
      EXPECT_EQ(others, clean.documents);
      std::erase_if(dirty.findings, [&](const auto& f) {
        return std::get<1>(f) == "invalid-document" || std::get<4>(f) == "Deployment/x";
      });
      EXPECT_EQ(dirty.findings, clean.findings);
    }
    expect_each_reported(with, broken_at);
  }
}

// A file that stops at a document that cannot be read, anywhere in a long
// stream, is given back as it is and reports what the documents before that
// one report on their own.
TEST(FaultIsolationLaw, AFileStopsWhereItCannotBeReadAndNoEarlier) {
  std::mt19937 rng(11);
  const std::vector<std::string> unreadable = {"a: [1\n", "x: \"open\n", "a:\n\tb: 1\n"};
  for (int round = 0; round < 12; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    const std::vector<std::string> docs = many_good_documents(rng);
    const std::size_t at = rng() % docs.size();
    std::vector<std::string> with = docs;
    with.insert(with.begin() + static_cast<std::ptrdiff_t>(at),
                unreadable[rng() % unreadable.size()]);
    const std::vector<std::string> before(docs.begin(),
                                          docs.begin() + static_cast<std::ptrdiff_t>(at));
    for (Task task : {Task::Lint, Task::Fix}) {
      Engine e;
      RunResult r = e.run({Input::in_memory("a.yaml", join(with))}, task);
      ASSERT_EQ(r.files.size(), 1u);
      EXPECT_TRUE(r.files[0].stopped);
      EXPECT_EQ(r.files[0].output(), join(with));
      ASSERT_NE(e.find("unreadable-file"), nullptr);
      EXPECT_EQ(e.find("unreadable-file")->document, at);
      Outcome dirty = run_on({Input::in_memory("a.yaml", join(with))}, task);
      Outcome prefix = run_on({Input::in_memory("a.yaml", join(before))}, task);
      std::erase_if(dirty.findings,
                    [](const auto& f) { return std::get<1>(f) == "unreadable-file"; });
      EXPECT_EQ(dirty.findings, prefix.findings);
    }
  }
}

// A file that cannot be read is reported and left alone; the other files
// come out as they do without it.
TEST(FaultIsolationLaw, AnUnreadableFileChangesNothingInTheOthers) {
  std::mt19937 rng(7);
  const std::vector<std::string> unreadable = {"a: [1\n", "kind: Pod\nspec: *nowhere\n",
                                               "x: \"open\n", "a:\n\tb: 1\n",
                                               std::string("a: b\n\x01\n")};
  for (int round = 0; round < 40; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    std::vector<std::string> docs;
    for (int i = 0; i < 3; ++i)
      docs.push_back(good_document(rng, i));
    std::string bad = join({good_document(rng, 9), unreadable[rng() % unreadable.size()]});
    for (Task task : {Task::Lint, Task::Fix}) {
      Engine e;
      RunResult r = e.run({Input::in_memory("a.yaml", join(docs)), Input::in_memory("b.yaml", bad),
                           Input::in_memory("c.yaml", join(docs))},
                          task);
      Outcome clean = run_on({Input::in_memory("a.yaml", join(docs))}, task);
      ASSERT_EQ(r.files.size(), 3u);
      EXPECT_TRUE(r.files[1].stopped);
      EXPECT_EQ(r.files[1].output(), bad);
      EXPECT_EQ(r.files[0].output(), r.files[2].output());
      std::string clean_text;
      for (const std::string& d : clean.documents)
        clean_text += d.substr(std::string("a.yaml: ").size());
      EXPECT_EQ(r.files[0].output(), clean_text);
      EXPECT_EQ(r.faults, 1u);
      ASSERT_NE(e.find("unreadable-file"), nullptr);
      EXPECT_EQ(e.find("unreadable-file")->file, "b.yaml");
    }
  }
}

}  // namespace
}  // namespace archfit::run
