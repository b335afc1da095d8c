// Node pools in the engine: pools read from any file of the run (before the
// workloads they must host), declared pools, no-feasible-pool on the
// template as fix leaves it, the pool rules, and fix's taints with their laws
// (fix is idempotent, --remove gives back the bytes, lint agrees with fix).
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <archfit/base/error.hpp>
#include <archfit/cache/lock_file.hpp>
#include <archfit/placement/config.hpp>
#include <archfit/resolve/resolver.hpp>
#include <archfit/run/run.hpp>

#include "support/engine.hpp"

// A named namespace: the unity build puts this file beside run_test.cpp.
namespace archfit::nodepools::pool_tests {

using run::Input;
using run::RunResult;
using run::Task;

std::string deployment(const std::string& name, const std::string& image,
                       const std::string& spec_extra = "") {
  return "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: " + name +
         "\nspec:\n  template:\n    spec:\n" + spec_extra +
         "      containers:\n      - name: app\n        image: " + image + "\n";
}

std::string node_pool(const std::string& name, const std::string& arch,
                      const std::string& taints = "") {
  return "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata:\n  name: " + name +
         "\nspec:\n  template:\n    spec:\n      requirements:\n      - key: kubernetes.io/arch\n"
         "        operator: In\n        values: [" +
         arch + "]\n" + taints;
}

const std::string kArmTaint =
    "      taints:\n      - key: kubernetes.io/arch\n        value: arm64\n        effect: "
    "NoSchedule\n";

using archfit::testing::Engine;

// The rules the last run reported, with their files (mutable-tag aside).
std::vector<std::string> rules(const Engine& e) {
  std::vector<std::string> out;
  for (const findings::Finding& f : e.findings) {
    if (f.rule != "mutable-tag") out.push_back(f.file + " " + f.rule);
  }
  return out;
}

using Rules = std::vector<std::string>;

TEST(RunPools, NoFeasiblePoolNamesEachPoolsFirstReason) {
  Engine e;
  // The pools come in a file after the workloads.
  e.run(
      {Input::in_memory("a-apps.yaml",
                        deployment("web", "amd64only:1", "      nodeSelector: {workload: web}\n")),
       Input::in_memory(
           "z-pools.yaml",
           node_pool("arm", "arm64", kArmTaint) + "---\n" +
               node_pool("x86", "amd64",
                         "      taints: [{key: dedicated, value: batch, effect: NoSchedule}]\n"))},
      Task::Lint);
  const findings::Finding* f = e.find("no-feasible-pool");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->file, "a-apps.yaml");
  EXPECT_EQ(f->line, 7u);
  EXPECT_EQ(f->severity, findings::Severity::Error);
  EXPECT_FALSE(f->fixable);
  EXPECT_EQ(
      f->message,
      "no node pool can run the pods of Deployment \"web\": NodePool \"arm\" (z-pools.yaml:1): "
      "did not tolerate taint (taint=kubernetes.io/arch=arm64:NoSchedule); NodePool \"x86\" "
      "(z-pools.yaml:17): did not tolerate taint (taint=dedicated=batch:NoSchedule)");
  // fix reports it too: a person must act.
  RunResult r = e.run({Input::in_memory("a-apps.yaml", deployment("web", "amd64only:1")),
                       Input::in_memory("z-pools.yaml", node_pool("arm", "arm64"))},
                      Task::Fix);
  ASSERT_NE(e.find("no-feasible-pool"), nullptr);
  EXPECT_NE(e.find("no-feasible-pool")
                ->message.find("key kubernetes.io/arch, kubernetes.io/arch In [amd64] not in "
                               "kubernetes.io/arch In [arm64]"),
            std::string::npos);
  EXPECT_EQ(r.unfixable_errors, 1u);
  EXPECT_FALSE(r.files[1].changed());  // nodePools.fix is off
}

TEST(RunPools, TheTemplateIsCheckedAsFixLeavesIt) {
  Engine e;
  // An image for both: fix adds the arm64 toleration, so the arm pool fits.
  e.run({Input::in_memory("apps.yaml", deployment("web", "both:1")),
         Input::in_memory("pools.yaml", node_pool("arm", "arm64", kArmTaint))},
        Task::Lint);
  EXPECT_EQ(e.find("no-feasible-pool"), nullptr);
  // Without pools there is nothing to check.
  e.run({Input::in_memory("apps.yaml",
                          deployment("web", "amd64only:1", "      nodeSelector: {x: y}\n"))},
        Task::Lint);
  EXPECT_EQ(e.find("no-feasible-pool"), nullptr);
}

TEST(RunPools, DeclaredPoolsCount) {
  Engine e;
  nodepools::Pool gke;
  gke.name = "gke-arm";
  gke.source = nodepools::PoolSource::Declared;
  gke.file = ".archfit.yaml";
  gke.line = 3;
  gke.requirements.push_back({"kubernetes.io/arch", nodepools::Operator::In, {"arm64"}});
  e.config.node_pools.declared.push_back(gke);
  e.run({Input::in_memory("apps.yaml", deployment("web", "amd64only:1"))}, Task::Lint);
  ASSERT_NE(e.find("no-feasible-pool"), nullptr);
  EXPECT_NE(e.find("no-feasible-pool")->message.find("declared pool \"gke-arm\" (.archfit.yaml:3)"),
            std::string::npos);
  nodepools::Pool any = gke;
  any.name = "gke-default";
  any.requirements.clear();
  e.config.node_pools.declared.push_back(any);
  e.run({Input::in_memory("apps.yaml", deployment("web", "amd64only:1"))}, Task::Lint);
  EXPECT_EQ(e.find("no-feasible-pool"), nullptr);
}

TEST(RunPools, PoolRulesAndFixLeavesPoolsAloneByDefault) {
  Engine e;
  std::string pools =
      node_pool("arm", "arm64") + "---\n" +
      "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: any}\nspec: {}\n";
  e.run({Input::in_memory("pools.yaml", pools)}, Task::Lint);
  EXPECT_EQ(rules(e),
            (Rules{"pools.yaml pool-arch-taint-missing", "pools.yaml pool-arch-unconstrained"}));
  EXPECT_FALSE(e.findings[0].fixable);  // nodePools.fix is off
  RunResult r = e.run({Input::in_memory("pools.yaml", pools)}, Task::Fix);
  EXPECT_FALSE(r.files[0].changed());
}

TEST(RunPools, FixAppendsTheTaintAndRemoveTakesItOut) {
  Engine e;
  e.config.node_pools.fix = true;
  const std::string original = node_pool("arm", "arm64");
  e.run({Input::in_memory("pools.yaml", original)}, Task::Lint);
  ASSERT_NE(e.find("pool-arch-taint-missing"), nullptr);
  EXPECT_TRUE(e.find("pool-arch-taint-missing")->fixable);
  RunResult fixed = e.run({Input::in_memory("pools.yaml", original)}, Task::Fix);
  ASSERT_TRUE(fixed.files[0].changed());
  std::string once = fixed.files[0].output();
  EXPECT_EQ(once,
            "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata:\n  name: arm\n"
            "  annotations:\n    archfit.io/owned: +metadata.annotations, "
            "+spec.template.spec.taints, spec.template.spec.taints[0]#f5c9ffda\n"
            "spec:\n  template:\n    spec:\n      requirements:\n      - key: kubernetes.io/arch\n"
            "        operator: In\n        values: [arm64]\n      taints:\n"
            "      - key: kubernetes.io/arch\n        value: arm64\n        effect: NoSchedule\n");
  e.run({Input::in_memory("pools.yaml", once)}, Task::Lint);
  EXPECT_EQ(rules(e), Rules{});
  EXPECT_FALSE(e.run({Input::in_memory("pools.yaml", once)}, Task::Fix).files[0].changed());
  EXPECT_EQ(e.run({Input::in_memory("pools.yaml", once)}, Task::Remove).files[0].output(),
            original);
}

// Laws over generated pools: whatever taints and annotations a pool has, and
// however they are written, fix(fix(x)) == fix(x) and remove(fix(x)) == x.
TEST(RunPools, FixIsIdempotentAndRemoveGivesTheBytesBackOnGeneratedPools) {
  Engine e;
  e.config.node_pools.fix = true;
  std::mt19937 rng(15);
  const std::vector<std::string> taints = {
      "{key: dedicated, value: gpu, effect: NoSchedule}",
      "{key: kubernetes.io/arch, value: arm64, effect: NoSchedule}",
      "{key: spot, effect: NoExecute}"};
  int changed = 0;
  for (int round = 0; round < 200; ++round) {
    bool provisioner = rng() % 4 == 0;
    std::string arch = std::vector<std::string>{"arm64", "amd64", "arm64, amd64"}[rng() % 3];
    std::string meta = "metadata:\n  name: p" + std::to_string(round) + "\n";
    if (rng() % 2 == 0)
      meta += rng() % 2 ? "  annotations: {team: web}\n" : "  annotations:\n    team: web\n";
    std::string list;
    std::size_t n = rng() % 3;
    bool flow = rng() % 2 == 0;
    const std::string indent = provisioner ? "  " : "      ";
    if (n > 0 || rng() % 3 == 0) {
      list = indent + "taints:" + (flow ? " [" : "\n");
      for (std::size_t i = 0; i < n; ++i) {
        const std::string& t = taints[rng() % taints.size()];
        list += flow ? (i ? ", " : "") + t : indent + "- " + t + "\n";
      }
      if (flow) list += "]\n";
    }
    std::string req = indent + "requirements:\n" + indent +
                      "- {key: kubernetes.io/arch, operator: In, values: [" + arch + "]}\n";
    std::string text = provisioner ? "apiVersion: karpenter.sh/v1alpha5\nkind: Provisioner\n" +
                                         meta + "spec:\n" + req + list
                                   : "apiVersion: karpenter.sh/v1\nkind: NodePool\n" + meta +
                                         "spec:\n  template:\n    spec:\n" + req + list;
    if (rng() % 5 == 0) text += "# trailing comment\n";
    RunResult fixed = e.run({Input::in_memory("p.yaml", text)}, Task::Fix);
    std::string once = fixed.files[0].output();
    changed += fixed.files[0].changed();
    EXPECT_FALSE(e.run({Input::in_memory("p.yaml", once)}, Task::Fix).files[0].changed()) << once;
    EXPECT_EQ(e.run({Input::in_memory("p.yaml", once)}, Task::Remove).files[0].output(), text)
        << once;
    e.run({Input::in_memory("p.yaml", once)}, Task::Lint);
    for (const findings::Finding& f : e.findings)
      EXPECT_FALSE(f.fixable) << once << f.message;
  }
  EXPECT_GT(changed, 30);  // the laws were tried on pools fix changes
}

// A pool that cannot be read is a finding on its document; the pools beside
// it and the workloads are checked as though it were not there.
TEST(RunPools, ABadPoolIsAFindingAtItsPlaceAndTheOthersGoOn) {
  Engine e;
  std::string bad =
      "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: p}\nspec:\n"
      "  template:\n    spec:\n      requirements:\n      - {key: a, operator: Equals}\n";
  RunResult r = e.run({Input::in_memory("apps.yaml", deployment("web", "both:1")),
                       Input::in_memory("pools.yaml", bad + "---\n" + node_pool("arm", "arm64"))},
                      Task::Lint);
  const findings::Finding* f = e.find("invalid-document");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->file, "pools.yaml");
  EXPECT_EQ(f->line, 8u);
  EXPECT_EQ(f->column, 28u);
  EXPECT_NE(f->message.find("\"Equals\" is not an operator"), std::string::npos) << f->message;
  EXPECT_EQ(r.faults, 1u);
  // The good pool is still known: it is arm64 only, so the template's lack of
  // an arm64 toleration is the pool's concern, reported as usual.
  Engine without;
  without.run({Input::in_memory("apps.yaml", deployment("web", "both:1")),
               Input::in_memory("pools.yaml", node_pool("arm", "arm64"))},
              Task::Lint);
  Rules expected = rules(without);
  Rules got = rules(e);
  std::erase(got, "pools.yaml invalid-document");
  EXPECT_EQ(got, expected);
}

}  // namespace archfit::nodepools::pool_tests
