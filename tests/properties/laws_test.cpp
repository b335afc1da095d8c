// The laws of fix, lint and --remove over generated manifests: at least
// 10,000 pod templates per run, in streams of a few hundred documents, under
// several configurations and two random lock files A and B each:
//   remove(fix_A(x)) == x, byte for byte;
//   fix_B(fix_A(x)) == fix_B(x), byte for byte;
//   fix_A(fix_A(x)) == fix_A(x);
//   lint reports a fixable finding for exactly the documents fix changes,
//   and after fix none; `fix --check` agrees; proposed values are written;
//   where the scheduler can put each template after fix (an independent
//   evaluator, scheduling.hpp) is exactly the platforms its images support
//   among those the user's own constraints allow, unless lint reported an
//   error for the template and fix left it as it was.
//
// ARCHFIT_PROPERTY_CASES sets the number of templates (default 10,500);
// ARCHFIT_OUTPUT_DIR, when set, receives every stream fix wrote (for the
// schema check in tests/schema).
#include "support/laws.hpp"

#include <cstdlib>
#include <fstream>
#include <map>
#include <random>
#include <set>

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <archfit/yaml/parse.hpp>
#include <archfit/yaml/stream.hpp>
#include <archfit/yaml/value.hpp>

#include "properties/generator.hpp"
#include "properties/scheduling.hpp"
#include "support/corpus.hpp"

namespace archfit::testing {
namespace {

using yaml::Value;

struct Scenario {
  const char* name;
  std::string config;
  Cluster cluster;
  Constraints user;  // how the user's own constraints count
  bool placement_law = true;
};

Cluster default_cluster() {
  Cluster c;
  c.platforms = {{"linux", "amd64"}, {"linux", "arm64"}};
  c.arch_taints["arm64"] = {Taint{"kubernetes.io/arch", "arm64", "NoSchedule"}};
  return c;
}

std::vector<Scenario> scenarios() {
  std::vector<Scenario> out;
  out.push_back({"default", "", default_cluster(), {false, false}, true});
  out.push_back({"node-selector",
                 "placement: {mode: nodeSelector}\n",
                 default_cluster(),
                 {false, false},
                 true});
  out.push_back({"preferred",
                 "placement: {mode: preferred, preferredWeights: {arm64: 80, amd64: 20}}\n",
                 default_cluster(),
                 {false, false},
                 true});
  out.push_back({"tolerations-only",
                 "placement: {mode: tolerationsOnly}\n",
                 default_cluster(),
                 {false, false},
                 false});
  out.push_back({"respect-existing-off",
                 "placement: {respectExisting: false}\n",
                 default_cluster(),
                 {false, true},
                 true});
  Cluster multi = default_cluster();
  multi.platforms.emplace_back("windows", "amd64");
  out.push_back({"multi-os",
                 "clusterPlatforms: [linux/amd64, linux/arm64, windows/amd64]\n",
                 multi,
                 {false, false},
                 true});
  Cluster custom = default_cluster();
  custom.arch_labels["arm64"] = {{"cloud.example.com/pool", "graviton"}};
  custom.arch_taints["arm64"] = {Taint{"cloud.example.com/pool", "graviton", "NoSchedule"},
                                 Taint{"dedicated-arch", "arm64", "PreferNoSchedule"}};
  out.push_back(
      {"custom-labels",
       "architectures:\n  arm64:\n    nodeLabels: {cloud.example.com/pool: graviton}\n"
       "    tolerations:\n    - {key: cloud.example.com/pool, operator: Equal, value: graviton, "
       "effect: NoSchedule}\n    - {key: dedicated-arch, operator: Equal, value: arm64, effect: "
       "PreferNoSchedule}\n",
       custom,
       {false, false},
       true});
  return out;
}

// A lock file giving every image a random platform set, shaped like real
// images: most run everywhere or on amd64 only, some on arm64 only, a few on
// a platform the cluster does not run.
std::string random_lock(const std::vector<std::string>& images, const Cluster& cluster,
                        std::mt19937_64& rng, std::map<std::string, std::set<std::string>>& out) {
  std::vector<std::string> all;
  for (const auto& [os, arch] : cluster.platforms)
    all.push_back(os + "/" + arch);
  std::string json = "{\"version\": 1, \"images\": {";
  for (std::size_t i = 0; i < images.size(); ++i) {
    std::set<std::string> set;
    int r = std::uniform_int_distribution<int>(0, 99)(rng);
    if (r < 45) {
      set.insert(all.begin(), all.end());
    } else if (r < 70) {
      set = {"linux/amd64"};
    } else if (r < 85) {
      set = {"linux/arm64"};
    } else if (r < 93) {
      set = {"linux/amd64", "linux/s390x"};
    } else {
      while (set.empty()) {
        for (const std::string& p : all) {
          if (std::uniform_int_distribution<int>(0, 1)(rng) == 1) set.insert(p);
        }
      }
    }
    out[images[i]] = set;
    json += (i > 0 ? ", " : "") + std::string("\"") + images[i] + "\": {\"platforms\": [";
    std::size_t k = 0;
    for (const std::string& p : set)
      json += (k++ > 0 ? ", \"" : "\"") + p + "\"";
    json += "]}";
  }
  return json + "}}\n";
}

std::size_t case_count() {
  const char* v = std::getenv("ARCHFIT_PROPERTY_CASES");
  return v != nullptr ? std::stoul(v) : 10500;
}

std::vector<std::string> documents_of(const std::string& stream) {
  std::vector<std::string> out;
  for (const yaml::DocumentText& d : yaml::split_stream(stream))
    out.emplace_back(d.text);
  return out;
}

// (document, workload name) of every template lint reports an error for, and
// the documents with a fixable finding.
struct LintSummary {
  std::set<std::pair<std::size_t, std::string>> errors;
  std::set<std::size_t> fixable;
};

LintSummary summarize(const std::string& json) {
  LintSummary s;
  rapidjson::Document report;
  report.Parse(json.c_str());
  for (const auto& f : report["findings"].GetArray()) {
    std::size_t doc = f["document"].GetUint();
    if (f["fixable"].GetBool()) s.fixable.insert(doc);
    if (std::string(f["severity"].GetString()) == "error" && !f["fixable"].GetBool()) {
      s.errors.emplace(doc, f["resource"]["name"].GetString());
    }
  }
  return s;
}

// Each pod template of a document's data: (workload name, template value).
std::vector<std::pair<std::string, const Value*>> templates_of(const Value& doc) {
  std::vector<std::pair<std::string, const Value*>> out;
  auto of = [&out](const Value& w) {
    const Value* name = w.find("metadata") != nullptr ? w.find("metadata")->find("name") : nullptr;
    std::string n = name != nullptr && name->is_string() ? name->as_string() : "";
    const Value* kind = w.find("kind");
    if (kind == nullptr || !kind->is_string()) return;
    if (kind->as_string() == "Pod") {
      out.emplace_back(n, &w);
      return;
    }
    const Value* spec = w.find("spec");
    if (spec == nullptr) return;
    if (kind->as_string() == "CronJob") spec = spec->find("jobTemplate")->find("spec");
    out.emplace_back(n, spec->find("template"));
  };
  const Value* kind = doc.find("kind");
  if (kind != nullptr && kind->is_string() && kind->as_string() == "List") {
    for (const Value& item : doc.find("items")->items())
      of(item);
  } else {
    of(doc);
  }
  return out;
}

std::set<std::string> images_of(const Value& pod_template) {
  std::set<std::string> out;
  const Value* spec = pod_template.find("spec");
  for (const char* list : {"containers", "initContainers"}) {
    const Value* l = spec != nullptr ? spec->find(list) : nullptr;
    if (l == nullptr || !l->is_sequence()) continue;
    for (const Value& c : l->items())
      out.insert(c.find("image")->as_string());
  }
  return out;
}

void dump(const std::string& name, const std::string& text) {
  const char* dir = std::getenv("ARCHFIT_OUTPUT_DIR");
  if (dir == nullptr) return;
  std::ofstream(std::string(dir) + "/" + name, std::ios::binary) << text;
}

TEST(GeneratedManifests, KeepTheLaws) {
  const std::vector<Scenario> all = scenarios();
  const std::size_t per_stream = 250;
  const std::size_t streams = (case_count() + per_stream - 1) / per_stream;
  std::size_t templates = 0;
  std::size_t placed = 0;      // templates fix changed
  std::size_t left_alone = 0;  // templates with an error finding
  std::size_t evaluated = 0;   // templates the scheduling law was checked on
  for (std::size_t s = 0; s < streams; ++s) {
    const Scenario& scenario = all[s % all.size()];
    SCOPED_TRACE(std::string("stream ") + std::to_string(s) + " (" + scenario.name + ")");
    ManifestGenerator gen(0x5eed0000u + s, 12);
    std::mt19937_64 rng(0x10c0000u + s);
    std::string x;
    for (std::size_t i = 0; i < per_stream; ++i)
      x += gen.document(s * per_stream + i);
    std::map<std::string, std::set<std::string>> platforms_a;
    std::map<std::string, std::set<std::string>> platforms_b;
    std::string lock_a = random_lock(gen.images(), scenario.cluster, rng, platforms_a);
    std::string lock_b = random_lock(gen.images(), scenario.cluster, rng, platforms_b);

    Workspace ws(x, lock_a, scenario.config);
    LintSummary lint = summarize(ws.lint_json());
    std::string lint_json = ws.lint_json();
    ProcessResult check = ws.run({"fix", "--check"});
    std::string y = ws.fix();
    dump("generated-" + std::to_string(s) + ".input.yaml", x);
    dump("generated-" + std::to_string(s) + ".yaml", y);
    dump("generated-" + std::to_string(s) + ".lock", lock_a);
    dump("generated-" + std::to_string(s) + ".config.yaml", scenario.config);
    // lint and fix agree, document by document.
    std::vector<std::string> xs = documents_of(x);
    std::vector<std::string> ys = documents_of(y);
    ASSERT_EQ(xs.size(), ys.size());
    for (std::size_t d = 0; d < xs.size(); ++d) {
      EXPECT_EQ(xs[d] != ys[d], lint.fixable.count(d) > 0)
          << "document " << d << (xs[d] != ys[d] ? " changed without" : " unchanged with")
          << " a fixable finding:\n"
          << xs[d] << "--- fixed\n"
          << ys[d];
      if (xs[d] != ys[d]) ++placed;
    }
    EXPECT_EQ(check.exit_code == 1, x != y) << "fix --check";
    for (const std::string& p : proposals_not_written(lint_json, y))
      ADD_FAILURE() << p;
    // Each edited document, parsed on its own, means the input's data with
    // only the placement fields changed.
    for (const std::string& p : changed_outside_placement(x, y))
      ADD_FAILURE() << p;
    for (const std::string& p : findings_that_disagree(lint_json))
      ADD_FAILURE() << p;
    // Idempotent, nothing left to fix.
    EXPECT_EQ(ws.fix(), y) << "a second fix changed the stream";
    ws.write_input(y);
    LintSummary after = summarize(ws.lint_json());
    EXPECT_TRUE(after.fixable.empty()) << "fixable findings remain after fix in document "
                                       << (after.fixable.empty() ? 0 : *after.fixable.begin());
    EXPECT_EQ(ws.run({"fix", "--check"}).exit_code, 0);
    // remove gives every byte back.
    std::string removed = ws.remove();
    if (removed != x) {
      std::vector<std::string> rs = documents_of(removed);
      for (std::size_t d = 0; d < xs.size() && d < rs.size(); ++d) {
        EXPECT_EQ(rs[d], xs[d]) << "remove(fix(x)) != x in document " << d << "; fixed:\n" << ys[d];
      }
    }
    // After the images changed: the same bytes as a first run.
    ws.write_lock(lock_b);
    ws.write_input(y);
    std::string z1 = ws.fix();
    ws.write_input(x);
    std::string z2 = ws.fix();
    if (z1 != z2) {
      std::vector<std::string> a = documents_of(z1);
      std::vector<std::string> b = documents_of(z2);
      for (std::size_t d = 0; d < a.size() && d < b.size(); ++d) {
        EXPECT_EQ(a[d], b[d]) << "fix_B(fix_A(x)) != fix_B(x) in document " << d << "; fix_A:\n"
                              << ys[d];
      }
    }
    // Where the pods can go.
    for (std::size_t d = 0; d < xs.size(); ++d) {
      if (xs[d].find("kind:") == std::string::npos) continue;
      yaml::Tree before = yaml::parse_document(xs[d]);
      yaml::Tree fixed = yaml::parse_document(ys[d]);
      Value bv = yaml::to_value(before.root());
      Value fv = yaml::to_value(fixed.root());
      auto tb = templates_of(bv);
      auto tf = templates_of(fv);
      ASSERT_EQ(tb.size(), tf.size());
      for (std::size_t k = 0; k < tb.size(); ++k) {
        ++templates;
        if (lint.errors.count({d, tb[k].first})) {
          ++left_alone;
          continue;
        }
        if (!scenario.placement_law) continue;
        std::set<std::string> S;
        bool first = true;
        for (const std::string& image : images_of(*tb[k].second)) {
          std::set<std::string> p = platforms_a.at(image);
          if (first) {
            S = p;
          } else {
            std::set<std::string> both;
            for (const std::string& q : S)
              if (p.count(q)) both.insert(q);
            S = both;
          }
          first = false;
        }
        std::set<std::string> allowed =
            schedulable(*tb[k].second->find("spec"), scenario.cluster, scenario.user);
        std::set<std::string> expected;
        for (const std::string& p : allowed)
          if (S.count(p)) expected.insert(p);
        Constraints with_taints;
        std::set<std::string> actual =
            schedulable(*tf[k].second->find("spec"), scenario.cluster, with_taints);
        ++evaluated;
        EXPECT_EQ(actual, expected) << "document " << d << " template of " << tb[k].first
                                    << " can be scheduled elsewhere than its images and own "
                                       "constraints allow; before:\n"
                                    << xs[d] << "--- after\n"
                                    << ys[d];
      }
    }
  }
  RecordProperty("templates", static_cast<int>(templates));
  std::printf(
      "generated %zu templates: %zu documents changed, %zu left alone with an error, "
      "scheduling checked on %zu\n",
      templates, placed, left_alone, evaluated);
  EXPECT_GE(templates, case_count());
  // The generator must exercise both outcomes richly.
  EXPECT_GE(placed, templates / 3);
  EXPECT_GE(evaluated, templates / 2);
}

}  // namespace
}  // namespace archfit::testing
