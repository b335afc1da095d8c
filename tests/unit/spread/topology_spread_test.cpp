// Weighted spread by topology spread (Karpenter's ratio technique), in the
// engine: the pools get their label values, the pods the spread and the In
// expression in every required term; and the laws over generated workloads
// and pools (fix is idempotent, --remove gives the bytes back, lint agrees
// with fix, every term and pool carries what the profile says).
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <archfit/run/run.hpp>
#include <archfit/spread/model/distributor.hpp>
#include <archfit/spread/model/profile.hpp>
#include <archfit/yaml/parse.hpp>
#include <archfit/yaml/stream.hpp>
#include <archfit/yaml/value.hpp>

#include "support/engine.hpp"

// A named namespace: the unity build puts this file beside the other run tests.
namespace archfit::spread::topology_spread_tests {

using run::Input;
using run::RunResult;
using run::Task;

using Lines = std::vector<std::string>;
using yaml::Value;

spread::SpreadProfile ratio_profile(std::vector<std::pair<std::string, spread::Share>> groups,
                                    std::string label = "") {
  spread::SpreadProfile p;
  p.name = "ratio";
  p.realisation = spread::Realisation::TopologySpread;
  p.label = std::move(label);
  p.assigns = true;  // every workload
  for (auto& [pool, share] : groups) {
    spread::ProfileGroup g;
    g.pool = pool;
    g.share = share;
    p.groups.push_back(std::move(g));
  }
  return p;
}

std::vector<Value> documents(const std::string& text) {
  std::vector<Value> out;
  for (const yaml::DocumentText& doc : yaml::split_stream(text)) {
    if (!doc.has_content) continue;
    yaml::Tree tree = yaml::parse_document(doc.text);
    out.push_back(yaml::to_value(tree.root()));
  }
  return out;
}

const Value* path(const Value& v, std::initializer_list<const char*> keys) {
  const Value* at = &v;
  for (const char* k : keys) {
    at = at->is_mapping() ? at->find(k) : nullptr;
    if (at == nullptr) return nullptr;
  }
  return at;
}

Lines strings(const Value* list) {
  Lines out;
  if (list == nullptr || !list->is_sequence()) return out;
  for (const Value& v : list->items())
    out.push_back(v.as_string());
  return out;
}

// The values of `key In [...]` among a list of requirements or expressions;
// nothing when it has none.
std::optional<Lines> in_values(const Value* list, const std::string& key) {
  if (list == nullptr || !list->is_sequence()) return std::nullopt;
  for (const Value& e : list->items()) {
    const Value* k = e.find("key");
    if (k != nullptr && k->as_string() == key && e.find("operator")->as_string() == "In")
      return strings(e.find("values"));
  }
  return std::nullopt;
}

std::string node_pool(const std::string& name, const std::string& arch,
                      const std::string& requirements_extra = "") {
  return "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata:\n  name: " + name +
         "\nspec:\n  template:\n    spec:\n      nodeClassRef: {group: karpenter.k8s.aws, kind: "
         "EC2NodeClass, name: default}\n      requirements:\n      - key: kubernetes.io/arch\n  "
         "      operator: In\n        values: [" +
         arch + "]\n" + requirements_extra;
}

std::string deployment(const std::string& name, const std::string& image,
                       const std::string& spec_extra = "") {
  return "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: " + name +
         "\nspec:\n  replicas: 5\n  selector:\n    matchLabels:\n      app: " + name +
         "\n  template:\n    metadata:\n      labels:\n        app: " + name +
         "\n    spec:\n      containers:\n      - name: app\n        image: " + image + "\n" +
         spec_extra;
}

TEST(TopologySpread, KarpentersRatioExample) {
  archfit::testing::Engine e;
  e.config.node_pools.fix = true;
  e.config.node_pools.spread_profiles.push_back(
      ratio_profile({{"on-demand", {0, 1}}, {"spot", {0, 4}}}, "capacity-spread"));
  std::string pools = node_pool("spot", "amd64") + "---\n" + node_pool("on-demand", "amd64");
  std::string app = deployment("inflate", "both:1");
  RunResult r =
      e.run({Input::in_memory("a.yaml", app), Input::in_memory("b.yaml", pools)}, Task::Fix);
  std::vector<Value> fixed_pools = documents(r.files[1].output());
  const char* req[] = {"spec", "template", "spec", "requirements"};
  auto requirements = [&req](const Value& v) { return path(v, {req[0], req[1], req[2], req[3]}); };
  EXPECT_EQ(in_values(requirements(fixed_pools[0]), "capacity-spread"),
            (Lines{"2", "3", "4", "5"}));
  EXPECT_EQ(in_values(requirements(fixed_pools[1]), "capacity-spread"), (Lines{"1"}));
  Value d = documents(r.files[0].output()).at(0);
  const Value* spec = path(d, {"spec", "template", "spec"});
  const Value* terms =
      path(*spec, {"affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution",
                   "nodeSelectorTerms"});
  ASSERT_NE(terms, nullptr);
  EXPECT_EQ(in_values(terms->items()[0].find("matchExpressions"), "capacity-spread"),
            (Lines{"1", "2", "3", "4", "5"}));
  const Value* spreads = spec->find("topologySpreadConstraints");
  ASSERT_NE(spreads, nullptr) << r.files[0].output();
  const Value& c = spreads->items().at(0);
  EXPECT_EQ(c.find("maxSkew")->as_int(), 1);
  EXPECT_EQ(c.find("topologyKey")->as_string(), "capacity-spread");
  EXPECT_EQ(c.find("whenUnsatisfiable")->as_string(), "DoNotSchedule");
  EXPECT_EQ(path(c, {"labelSelector", "matchLabels", "app"})->as_string(), "inflate");
  // The pools as fix leaves them can run the pods.
  EXPECT_EQ(e.find("no-feasible-pool"), nullptr);
  // Without nodePools.fix the pools keep their requirements, and the pods
  // cannot go anywhere: lint says both.
  e.config.node_pools.fix = false;
  e.run({Input::in_memory("a.yaml", app), Input::in_memory("b.yaml", pools)}, Task::Lint);
  EXPECT_EQ(e.rules("spread"), (Lines{"spread-not-applied", "spread-pool-values-missing",
                                      "spread-pool-values-missing"}));
  ASSERT_NE(e.find("no-feasible-pool"), nullptr);
  EXPECT_NE(e.find("no-feasible-pool")
                ->message.find("label \"capacity-spread\" does not have known values"),
            std::string::npos);
}

TEST(TopologySpread, RefusesWhatItCannotSpread) {
  archfit::testing::Engine e;
  std::string pools = node_pool("a", "amd64") + "---\n" + node_pool("b", "arm64");
  e.config.node_pools.spread_profiles.push_back(ratio_profile({{"a", {0, 1}}, {"c", {0, 1}}}));
  std::string app = deployment("web", "both:1");
  e.run({Input::in_memory("a.yaml", app), Input::in_memory("b.yaml", pools)}, Task::Lint);
  ASSERT_NE(e.find("spread-refused"), nullptr);
  EXPECT_NE(e.find("spread-refused")->message.find("names pool \"c\", which is not a Karpenter"),
            std::string::npos);
  // No group's pool runs the images.
  e.config.node_pools.spread_profiles = {ratio_profile({{"b", {0, 1}}})};
  e.run({Input::in_memory("a.yaml", deployment("web", "amd64only:1")),
         Input::in_memory("b.yaml", pools)},
        Task::Lint);
  ASSERT_NE(e.find("spread-refused"), nullptr);
  EXPECT_NE(e.find("spread-refused")->message.find("no group's pool runs the images (amd64)"),
            std::string::npos);
  EXPECT_EQ(e.find("spread-not-applied"), nullptr);
  // A topologySpreadConstraints that is not a list.
  e.config.node_pools.spread_profiles = {ratio_profile({{"a", {0, 1}}})};
  e.run({Input::in_memory("a.yaml",
                          deployment("web", "both:1", "      topologySpreadConstraints: {}\n")),
         Input::in_memory("b.yaml", pools)},
        Task::Lint);
  ASSERT_NE(e.find("spread-refused"), nullptr);
  EXPECT_NE(e.find("spread-refused")->message.find("not a list"), std::string::npos);
}

// A template placement leaves as it is (here, for an operator the API server
// refuses) does not get its spread either, and a finding names the spread.
TEST(TopologySpread, ATemplateLeftAloneSaysItsSpreadIsNotWritten) {
  archfit::testing::Engine e;
  std::string pools = node_pool("a", "amd64") + "---\n" + node_pool("b", "arm64");
  e.config.node_pools.spread_profiles.push_back(ratio_profile({{"a", {0, 1}}, {"b", {0, 1}}}));
  std::string bad =
      "      affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
      "{nodeSelectorTerms: [{matchExpressions: [{key: disktype, operator: Equals, values: "
      "[ssd]}]}]}}}\n";
  e.run({Input::in_memory("a.yaml", deployment("web", "both:1", bad)),
         Input::in_memory("b.yaml", pools)},
        Task::Lint);
  const findings::Finding* refused = e.find("spread-refused");
  ASSERT_NE(refused, nullptr);
  EXPECT_NE(refused->message.find("spread profile \"ratio\""), std::string::npos)
      << refused->message;
  EXPECT_NE(refused->message.find("leaves this template as it is"), std::string::npos);
  EXPECT_EQ(e.find("spread-not-applied"), nullptr);
  const std::string message = refused->message;
  // fix says the same.
  e.run({Input::in_memory("a.yaml", deployment("web", "both:1", bad)),
         Input::in_memory("b.yaml", pools)},
        Task::Fix);
  ASSERT_NE(e.find("spread-refused"), nullptr);
  EXPECT_EQ(e.find("spread-refused")->message, message);
}

// A requirement of the user's on the label stays, and is reported; one
// archfit wrote for other weights is written again.
TEST(TopologySpread, ThePoolsRequirementsAreOwnedExactly) {
  archfit::testing::Engine e;
  e.config.node_pools.fix = true;
  e.config.node_pools.spread_profiles.push_back(
      ratio_profile({{"a", {0, 1}}, {"b", {0, 1}}}, "split"));
  std::string mine = "      - {key: split, operator: In, values: [\"7\"]}\n";
  std::string pools = node_pool("a", "amd64", mine) + "---\n" + node_pool("b", "amd64");
  std::string once = e.run({Input::in_memory("p.yaml", pools)}, Task::Fix).files[0].output();
  std::vector<Value> fixed = documents(once);
  auto requirements = [](const Value& v) {
    return path(v, {"spec", "template", "spec", "requirements"});
  };
  EXPECT_EQ(in_values(requirements(fixed[0]), "split"), (Lines{"7"}));
  EXPECT_EQ(in_values(requirements(fixed[1]), "split"), (Lines{"2"}));
  const findings::Finding* f = e.find("spread-pool-values-missing");
  ASSERT_NE(f, nullptr);
  EXPECT_FALSE(f->fixable);
  EXPECT_NE(f->message.find("archfit leaves yours"), std::string::npos);
  // New weights: archfit's own requirement is written again, the user's stays.
  e.config.node_pools.spread_profiles = {ratio_profile({{"a", {0, 1}}, {"b", {0, 2}}}, "split")};
  e.run({Input::in_memory("p.yaml", once)}, Task::Lint);
  Lines fixable;
  for (const findings::Finding& g : e.findings)
    if (g.fixable) fixable.push_back(g.rule);
  EXPECT_EQ(fixable, (Lines{"spread-pool-values-missing"}));
  std::string twice = e.run({Input::in_memory("p.yaml", once)}, Task::Fix).files[0].output();
  EXPECT_EQ(in_values(requirements(documents(twice)[1]), "split"), (Lines{"2", "3"}));
  EXPECT_EQ(e.run({Input::in_memory("p.yaml", twice)}, Task::Remove).files[0].output(), pools);
}

// Laws over generated workloads and pools.
TEST(TopologySpread, LawsOnGeneratedInputs) {
  archfit::testing::Engine e;
  std::mt19937 rng(11);
  int applied = 0;
  const Lines archs{"amd64", "arm64", "amd64, arm64"};
  for (int round = 0; round < 150; ++round) {
    // Pools: some with a requirement list in flow style, some without one,
    // one maybe with the user's own requirement on the label.
    std::size_t count = 1 + rng() % 3;
    std::string pools;
    std::vector<std::pair<std::string, spread::Share>> groups;
    const std::string label = rng() % 2 ? "" : "example.com/spread";
    for (std::size_t i = 0; i < count; ++i) {
      std::string name = "p" + std::to_string(i);
      std::string extra;
      if (rng() % 3 == 0)
        extra += "      - {key: karpenter.sh/capacity-type, operator: In, values: [spot]}\n";
      if (!label.empty() && rng() % 6 == 0)
        extra += "      - {key: " + label + ", operator: In, values: [\"1\"]}\n";
      std::string pool = node_pool(name, archs[rng() % archs.size()], extra);
      if (rng() % 4 == 0)
        pool += "      taints:\n      - {key: team, value: web, effect: NoSchedule}\n";
      pools += (i ? "---\n" : "") + pool;
      groups.push_back({name,
                        {static_cast<std::uint32_t>(rng() % 4 == 0 ? 1 : 0),
                         static_cast<std::uint32_t>(rng() % 4)}});
    }
    e.config.node_pools.fix = rng() % 2 == 0;
    e.config.node_pools.spread_profiles = {ratio_profile(groups, label)};
    // A workload with some of: required terms of the user's, a nodeSelector,
    // a topology spread of the user's (maybe on the same label), tolerations.
    std::string extra;
    if (rng() % 3 == 0) extra += "      nodeSelector:\n        disk: ssd\n";
    switch (rng() % 4) {
      case 0:
        extra +=
            "      affinity:\n        nodeAffinity:\n          "
            "requiredDuringSchedulingIgnoredDuringExecution:\n            nodeSelectorTerms:\n"
            "            - matchExpressions:\n              - {key: zone, operator: In, values: "
            "[a]}\n            - matchExpressions:\n              - {key: zone, operator: In, "
            "values: [b]}\n";
        break;
      case 1:
        extra += "      affinity:\n        podAntiAffinity: {}\n";
        break;
      default:
        break;
    }
    if (rng() % 3 == 0) {
      extra += "      topologySpreadConstraints:\n      - maxSkew: 2\n        topologyKey: " +
               std::string(rng() % 2 ? "topology.kubernetes.io/zone"
                                     : (label.empty() ? "spread.archfit.io/ratio" : label)) +
               "\n        whenUnsatisfiable: ScheduleAnyway\n";
    }
    if (rng() % 4 == 0) extra += "      tolerations:\n      - {operator: Exists}\n";
    const char* kind = rng() % 4 == 0 ? "StatefulSet" : "Deployment";
    std::string app =
        deployment("app" + std::to_string(round), rng() % 2 ? "both:1" : "amd64only:1", extra);
    app.replace(app.find("Deployment"), 10, kind);
    std::vector<Input> x{Input::in_memory("a.yaml", app), Input::in_memory("b.yaml", pools)};
    RunResult r = e.run(x, Task::Fix);
    bool refused = e.find("spread-refused") != nullptr;
    applied += !refused;
    std::vector<Input> once{Input::in_memory("a.yaml", r.files[0].output()),
                            Input::in_memory("b.yaml", r.files[1].output())};
    RunResult again = e.run(once, Task::Fix);
    EXPECT_EQ(again.files[0].output(), r.files[0].output()) << app;
    EXPECT_EQ(again.files[1].output(), r.files[1].output()) << pools;
    RunResult removed = e.run(once, Task::Remove);
    EXPECT_EQ(removed.files[0].output(), app) << r.files[0].output();
    EXPECT_EQ(removed.files[1].output(), pools) << r.files[1].output();
    e.run(once, Task::Lint);
    for (const findings::Finding& f : e.findings)
      EXPECT_FALSE(f.fixable) << r.files[0].output() << f.message;
    if (refused) continue;
    // Every required term carries the label's In; the pods spread over it.
    const std::string key = label.empty() ? "spread.archfit.io/ratio" : label;
    Value d = documents(r.files[0].output()).at(0);
    const Value* spec = path(d, {"spec", "template", "spec"});
    const Value* terms =
        path(*spec, {"affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution",
                     "nodeSelectorTerms"});
    ASSERT_NE(terms, nullptr) << r.files[0].output();
    for (const Value& term : terms->items())
      EXPECT_TRUE(in_values(term.find("matchExpressions"), key)) << r.files[0].output();
    const Value* spreads = spec->find("topologySpreadConstraints");
    ASSERT_NE(spreads, nullptr);
    bool over = false;
    for (const Value& c : spreads->items())
      over = over || c.find("topologyKey")->as_string() == key;
    EXPECT_TRUE(over) << r.files[0].output();
    // With nodePools.fix every pool with a weight carries its values, unless
    // the user wrote other ones.
    if (!e.config.node_pools.fix) continue;
    std::vector<Value> fixed = documents(r.files[1].output());
    for (std::size_t i = 0; i < count; ++i) {
      if (groups[i].second.weight == 0) continue;
      EXPECT_TRUE(in_values(path(fixed[i], {"spec", "template", "spec", "requirements"}), key))
          << r.files[1].output();
    }
  }
  EXPECT_GT(applied, 60);
}

}  // namespace archfit::spread::topology_spread_tests
