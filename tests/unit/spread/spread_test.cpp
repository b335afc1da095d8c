// Weighted spread by splitting, in the engine: the predecessors' two examples
// verbatim, refusals, groups left out for their architecture, and the laws
// over generated Deployments (fix is idempotent, --remove gives the bytes
// back, the pieces' replicas add up, lint agrees with fix).
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <archfit/cache/lock_file.hpp>
#include <archfit/placement/config.hpp>
#include <archfit/resolve/resolver.hpp>
#include <archfit/run/run.hpp>
#include <archfit/yaml/parse.hpp>
#include <archfit/yaml/stream.hpp>
#include <archfit/yaml/value.hpp>

#include "support/engine.hpp"

// A named namespace: the unity build puts this file beside run_test.cpp.
namespace archfit::spread::spread_tests {

using run::Input;
using run::RunResult;
using run::Task;

const std::string kStrategy =
    "nodesize=od4vcpu16gb,base=1,weight=0:nodesize=spot4vcpu16gb,weight=1:nodesize=spot8vcpu32gb,"
    "weight=1";

std::string deployment(const std::string& name, const std::string& replicas,
                       const std::string& annotations, const std::string& image = "both:1") {
  return "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: " + name + "\n" + annotations +
         "spec:\n" + replicas + "  selector:\n    matchLabels:\n      app: " + name +
         "\n  template:\n    metadata:\n      labels:\n        app: " + name +
         "\n    spec:\n      containers:\n      - name: app\n        image: " + image + "\n";
}

// The engine, with fix of a file (and another beside it) as one call.
struct Engine : archfit::testing::Engine {
  std::string fix(const std::string& text, const std::string& extra = "") {
    std::vector<Input> inputs{Input::in_memory("a.yaml", text)};
    if (!extra.empty()) inputs.push_back(Input::in_memory("b.yaml", extra));
    return output(inputs, Task::Fix);
  }
  std::vector<std::string> rules() const { return archfit::testing::Engine::rules("spread"); }
};

// name -> replicas and the group of each Deployment of a stream.
std::vector<std::string> pieces(const std::string& text) {
  std::vector<std::string> out;
  for (const yaml::DocumentText& doc : yaml::split_stream(text)) {
    if (!doc.has_content) continue;
    yaml::Tree tree = yaml::parse_document(doc.text);
    yaml::Value v = yaml::to_value(tree.root());
    if (v.find("kind")->as_string() != "Deployment") continue;
    const yaml::Value* spec = v.find("spec");
    const yaml::Value* replicas = spec->find("replicas");
    const yaml::Value* selector = spec->find("template")->find("spec")->find("nodeSelector");
    std::string group;
    if (selector != nullptr && selector->is_mapping()) {
      for (const auto& [k, value] : selector->entries())
        group += k + "=" + value.as_string();
    }
    out.push_back(v.find("metadata")->find("name")->as_string() + " " +
                  (replicas ? std::to_string(replicas->as_int()) : "-") + " " + group);
  }
  return out;
}

using Lines = std::vector<std::string>;

TEST(Spread, TheAnnotationExampleGivesOneFourFive) {
  Engine e;
  std::string x =
      deployment("web", "  replicas: 10\n",
                 "  annotations:\n    CustomPodScheduleStrategy: '" + kStrategy + "'\n");
  std::string fixed = e.fix(x);
  EXPECT_EQ(pieces(fixed), (Lines{"web-od4vcpu16gb 1 nodesize=od4vcpu16gb",
                                  "web-spot4vcpu16gb 4 nodesize=spot4vcpu16gb",
                                  "web-spot8vcpu32gb 5 nodesize=spot8vcpu32gb"}));
  // The annotation stays; an info says a webhook would override.
  EXPECT_NE(fixed.find("CustomPodScheduleStrategy: '" + kStrategy + "'"), std::string::npos);
  EXPECT_NE(fixed.find("archfit.io/split: 2/3 of web replicas=10 key=nodesize"), std::string::npos);
  EXPECT_NE(fixed.find("archfit.io/spread-group: spot8vcpu32gb"), std::string::npos);
  e.run({Input::in_memory("a.yaml", x)}, Task::Lint);
  EXPECT_EQ(e.rules(), (Lines{"spread-not-split", "spread-webhook"}));
  EXPECT_EQ(e.fix(fixed), fixed);
  e.run({Input::in_memory("a.yaml", fixed)}, Task::Lint);
  EXPECT_EQ(e.rules(), (Lines{"spread-webhook", "spread-webhook", "spread-webhook"}));
  EXPECT_EQ(e.run({Input::in_memory("a.yaml", fixed)}, Task::Remove).files[0].output(), x);
}

TEST(Spread, ThePodDistributorExampleGivesEightTwoAndLeavesJobsAlone) {
  Engine e;
  std::string distributor = R"(apiVersion: versprei.versprei.io/v1beta1
kind: PodDistributor
metadata:
  name: web
spec:
  distribution:
  - nodeLabel: type=default
    weight: 80
  - nodeLabel: type=spot
    weight: 20
  target:
    apiVersion: apps/v1
    kind: Deployment
    name: web
)";
  std::string x = deployment("web", "  replicas: 10\n", "");
  std::string fixed = e.fix(x, distributor);
  EXPECT_EQ(pieces(fixed), (Lines{"web-default 8 type=default", "web-spot 2 type=spot"}));
  std::string job =
      "apiVersion: batch/v1\nkind: Job\nmetadata: {name: web}\nspec:\n  template:\n"
      "    spec:\n      restartPolicy: Never\n      containers: [{name: a, image: both:1}]\n";
  std::string fixed_job = e.fix(job, distributor);
  EXPECT_EQ(fixed_job.find("archfit.io/split"), std::string::npos);
  e.run({Input::in_memory("a.yaml", job), Input::in_memory("b.yaml", distributor)}, Task::Lint);
  EXPECT_EQ(e.rules(), Lines{});
}

TEST(Spread, AutoscaledAndStatefulWorkloadsAreRefused) {
  Engine e;
  std::string annotated =
      "  annotations:\n    CustomPodScheduleStrategy: 'type=a,weight=1:type=b,weight=1'\n";
  std::string x = deployment("web", "  replicas: 4\n", annotated);
  for (std::string scaler :
       {std::string(
            "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: web}\n"
            "spec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}\n"
            "  maxReplicas: 9\n"),
        std::string("apiVersion: keda.sh/v1alpha1\nkind: ScaledObject\nmetadata: {name: web}\n"
                    "spec:\n  scaleTargetRef: {name: web}\n")}) {
    EXPECT_EQ(e.fix(x, scaler).find("archfit.io/split"), std::string::npos);
    ASSERT_EQ(e.rules(), (Lines{"spread-refused"}));  // fix reports what is left to a person
    EXPECT_NE(e.findings[0].message.find("an autoscaler"), std::string::npos);
    e.run({Input::in_memory("a.yaml", x), Input::in_memory("b.yaml", scaler)}, Task::Lint);
    EXPECT_EQ(e.rules(), (Lines{"spread-refused", "spread-webhook"}));
  }
  std::string sts = x;
  sts.replace(sts.find("Deployment"), 10, "StatefulSet");
  EXPECT_EQ(e.fix(sts).find("archfit.io/split"), std::string::npos);
  e.run({Input::in_memory("a.yaml", sts)}, Task::Lint);
  EXPECT_EQ(e.rules(), (Lines{"spread-refused", "spread-webhook"}));
}

TEST(Spread, AGroupWhoseNodesCannotRunTheImagesIsLeftOut) {
  Engine e;
  // By the architecture label itself.
  std::string x =
      deployment("web", "  replicas: 6\n",
                 "  annotations:\n    CustomPodScheduleStrategy: "
                 "'kubernetes.io/arch=arm64,weight=1:kubernetes.io/arch=amd64,weight=1'\n",
                 "amd64only:1");
  std::string fixed = e.fix(x);
  EXPECT_EQ(pieces(fixed), (Lines{"web-amd64 6 kubernetes.io/arch=amd64"}));
  // By the pools whose nodes carry the group's label.
  std::string pools = R"(apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: spot-arm}
spec:
  template:
    metadata:
      labels: {nodesize: spot}
    spec:
      requirements: [{key: kubernetes.io/arch, operator: In, values: [arm64]}]
      taints: [{key: kubernetes.io/arch, value: arm64, effect: NoSchedule}]
---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: od-x86}
spec:
  template:
    metadata:
      labels: {nodesize: od}
    spec:
      requirements: [{key: kubernetes.io/arch, operator: In, values: [amd64]}]
)";
  std::string y = deployment("web", "  replicas: 5\n",
                             "  annotations:\n    CustomPodScheduleStrategy: "
                             "'nodesize=od,base=1,weight=1:nodesize=spot,weight=3'\n",
                             "amd64only:1");
  fixed = e.fix(y, pools);
  EXPECT_EQ(pieces(fixed), (Lines{"web-od 5 nodesize=od"}));
  // Every piece keeps archfit's arch constraint.
  EXPECT_NE(fixed.find("values:\n                - amd64"), std::string::npos) << fixed;
  e.run({Input::in_memory("a.yaml", y), Input::in_memory("b.yaml", pools)}, Task::Lint);
  EXPECT_EQ(e.rules(), (Lines{"spread-group-excluded", "spread-not-split", "spread-webhook"}));
}

spread::SpreadProfile profile(std::string name, std::vector<spread::ProfileGroup> groups,
                              bool assigns = false) {
  spread::SpreadProfile p;
  p.name = std::move(name);
  p.groups = std::move(groups);
  p.assigns = assigns;
  return p;
}

TEST(Spread, ProfilesByAnnotationBySelectionAndByPool) {
  Engine e;
  e.config.node_pools.spread_profiles.push_back(
      profile("mostly-spot", {{"karpenter.sh/capacity-type", "on-demand", "", {2, 1}},
                              {"karpenter.sh/capacity-type", "spot", "", {0, 3}}}));
  std::string x =
      deployment("web", "  replicas: 10\n", "  annotations:\n    archfit.io/spread: mostly-spot\n");
  // 2 first, then 8 by 1:3.
  EXPECT_EQ(pieces(e.fix(x)), (Lines{"web-on-demand 4 karpenter.sh/capacity-type=on-demand",
                                     "web-spot 6 karpenter.sh/capacity-type=spot"}));
  // Not named, not selected: nothing.
  std::string y = deployment("api", "  replicas: 3\n", "");
  EXPECT_EQ(pieces(e.fix(y)), (Lines{"api 3 "}));
  // A catch-all profile (workloads: {}) selects every Deployment; groups by pool.
  std::string pools =
      "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: graviton}\nspec: {}\n"
      "---\napiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: x86}\nspec: {}\n";
  e.config.node_pools.spread_profiles.push_back(
      profile("by-pool", {{"", "", "graviton", {0, 1}}, {"", "", "x86", {0, 1}}}, true));
  std::string fixed = e.fix(y, pools);
  EXPECT_EQ(pieces(fixed), (Lines{"api-graviton 1 karpenter.sh/nodepool=graviton",
                                  "api-x86 2 karpenter.sh/nodepool=x86"}));
  EXPECT_EQ(
      e.run({Input::in_memory("a.yaml", fixed), Input::in_memory("b.yaml", pools)}, Task::Remove)
          .files[0]
          .output(),
      y);
  // A pool archfit does not know, and a profile that does not exist.
  EXPECT_EQ(pieces(e.fix(y)), (Lines{"api 3 "}));
  ASSERT_EQ(e.rules(), (Lines{"spread-refused"}));
  EXPECT_NE(e.findings[0].message.find("names pool \"graviton\", which is not among the pools"),
            std::string::npos);
  std::string z =
      deployment("z", "  replicas: 3\n", "  annotations:\n    archfit.io/spread: fast\n");
  e.fix(z);
  ASSERT_EQ(e.rules(), (Lines{"spread-refused"}));
  EXPECT_NE(e.findings[0].message.find(
                "it names the profile \"fast\", which spread.profiles does not have (it has "
                "mostly-spot, by-pool)"),
            std::string::npos);
}

// Each piece tolerates the taints of its group's pools (not the others'),
// and that is placement's, undone and redone like the rest of it.
TEST(Spread, APieceToleratesItsGroupsTaints) {
  Engine e;
  std::string pools =
      "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: spot}\nspec:\n  template:\n"
      "    spec:\n      taints:\n      - {key: spot, value: \"true\", effect: NoSchedule}\n"
      "      - {key: cheap, effect: PreferNoSchedule}\n"
      "---\napiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: od}\nspec: {}\n";
  e.config.node_pools.spread_profiles.push_back(
      profile("p", {{"", "", "spot", {0, 1}}, {"", "", "od", {0, 1}}}, true));
  for (const std::string& tolerations :
       {std::string(), std::string("      tolerations:\n      - {key: team, operator: Exists}\n"),
        std::string("      tolerations:\n      - {key: spot, operator: Exists}\n")}) {
    std::string x = deployment("api", "  replicas: 4\n", "") + tolerations;
    RunResult r =
        e.run({Input::in_memory("a.yaml", x), Input::in_memory("b.yaml", pools)}, Task::Fix);
    std::string fixed = r.files[0].output();
    std::vector<std::string> docs;
    for (const yaml::DocumentText& doc : yaml::split_stream(fixed))
      docs.emplace_back(doc.text);
    ASSERT_EQ(docs.size(), 2u) << fixed;
    bool had = tolerations.find("key: spot") != std::string::npos;
    EXPECT_EQ(docs[0].find("key: spot\n") != std::string::npos, !had) << fixed;
    EXPECT_EQ(docs[0].find("cheap"), std::string::npos) << fixed;
    EXPECT_EQ(docs[1].find("key: spot\n"), std::string::npos) << fixed;
    EXPECT_NE(docs[0].find(tolerations), std::string::npos) << fixed;  // the user's, as written
    std::vector<Input> once{Input::in_memory("a.yaml", fixed), Input::in_memory("b.yaml", pools)};
    EXPECT_EQ(e.run(once, Task::Fix).files[0].output(), fixed);
    EXPECT_EQ(e.run(once, Task::Remove).files[0].output(), x);
    e.run(once, Task::Lint);
    for (const findings::Finding& f : e.findings)
      EXPECT_FALSE(f.fixable) << f.message;
    // Before fix, lint says the piece needs it only once it is a piece.
    e.run({Input::in_memory("a.yaml", x), Input::in_memory("b.yaml", pools)}, Task::Lint);
    for (const findings::Finding& f : e.findings)
      EXPECT_EQ(f.message.find("piece of a split"), std::string::npos) << f.message;
  }
}

// The reproducer: two groups whose pieces get one name (type=spot and
// capacity=spot) freed the plan a piece still pointed into. Now a refusal,
// by annotation and by a catch-all profile alike, and nothing changes.
TEST(Spread, GroupsWhosePiecesShareANameAreRefused) {
  Engine e;
  std::string x = deployment("web", "  replicas: 4\n",
                             "  annotations:\n    CustomPodScheduleStrategy: "
                             "'type=spot,weight=1:capacity=spot,weight=1'\n");
  EXPECT_EQ(pieces(e.fix(x)), (Lines{"web 4 "}));
  ASSERT_EQ(e.rules(), (Lines{"spread-refused"}));
  EXPECT_NE(e.findings[0].message.find("two pieces would both be named web-spot"),
            std::string::npos)
      << e.findings[0].message;
  e.config.node_pools.spread_profiles.push_back(
      profile("twice", {{"type", "spot", "", {0, 1}}, {"capacity", "spot", "", {0, 1}}}, true));
  std::string y = deployment("api", "  replicas: 3\n", "");
  EXPECT_EQ(pieces(e.fix(y)), (Lines{"api 3 "}));
  EXPECT_EQ(e.rules(), (Lines{"spread-refused"}));
}

// What a split would write is checked against Kubernetes' rules first: a
// label value the API server refuses is a refusal, not a broken manifest.
TEST(Spread, LabelsAndNamesTheAPIServerWouldRefuseAreRefused) {
  Engine e;
  const std::string long_value(70, 'a');
  struct Case {
    std::string strategy;
    std::string name;
    std::string says;
  };
  const Case cases[] = {
      {"type=" + long_value + ",weight=1", "web", "the label value must be at most 63 characters"},
      {"type=A_B/../x,weight=1", "web", "the label value may contain only letters, digits"},
      {"-type=spot,weight=1", "web", "the label key must start and end with a letter or digit"},
      {"example.com/a/b=spot,weight=1", "web", "the label key may contain at most one '/'"},
      {"type=spot,weight=1", std::string(250, 'w'), "must be at most 253 characters"},
      {"type=spot,weight=1", "Web", "must be lowercase DNS labels"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.strategy + " " + c.name.substr(0, 10));
    std::string x =
        deployment(c.name, "  replicas: 2\n",
                   "  annotations:\n    CustomPodScheduleStrategy: '" + c.strategy + "'\n");
    EXPECT_EQ(pieces(e.fix(x)).size(), 1u);
    ASSERT_EQ(e.rules(), (Lines{"spread-refused"}));
    EXPECT_NE(e.findings[0].message.find(c.says), std::string::npos) << e.findings[0].message;
  }
}

// Found by fuzz/spread.cpp: a split that had to create annotations or a
// nodeSelector in place of another value (a scalar, a null) replaced it, and
// --remove could not give it back. Refused now.
TEST(Spread, AFieldTheSplitWouldReplaceIsARefusal) {
  Engine e;
  e.config.node_pools.spread_profiles.push_back(
      profile("by-type", {{"type", "spot", "", {0, 1}}, {"type", "od", "", {0, 2}}}, true));
  const std::string cases[] = {
      deployment("a", "  replicas: 3\n", "  annotations: just text\n"),
      deployment("b", "  replicas: 3\n", "  annotations:\n"),
      deployment("c", "  replicas: 3\n", "  annotations: ~\n"),
  };
  std::string with_null_selector = deployment("d", "  replicas: 3\n", "");
  with_null_selector.insert(with_null_selector.find("      containers:"), "      nodeSelector:\n");
  for (const std::string& x : {cases[0], cases[1], cases[2], with_null_selector}) {
    SCOPED_TRACE(x);
    std::string once = e.fix(x);
    EXPECT_EQ(pieces(once).size(), 1u);
    EXPECT_EQ(e.rules(), (Lines{"spread-refused"}));
    EXPECT_EQ(e.fix(once), once);
    EXPECT_EQ(e.run({Input::in_memory("a.yaml", once)}, Task::Remove).files[0].output(), x);
  }
}

// The reproducer: replicas written 05 and a name of digits were rewritten by
// the second fix and not given back by --remove.
TEST(Spread, NamesAndReplicasComeBackAsTheyWereWritten) {
  Engine e;
  for (const char* replicas : {"05", "0x0A", "+7", "010"}) {
    for (const char* name : {"1e3-web", "web"}) {
      SCOPED_TRACE(std::string(name) + " " + replicas);
      std::string x =
          deployment(name, std::string("  replicas: ") + replicas + "\n",
                     "  annotations:\n    CustomPodScheduleStrategy: '" + kStrategy + "'\n");
      std::string once = e.fix(x);
      ASSERT_EQ(pieces(once).size(), 3u) << once;
      EXPECT_EQ(e.fix(once), once);
      EXPECT_EQ(e.run({Input::in_memory("a.yaml", once)}, Task::Remove).files[0].output(), x);
    }
  }
}

// Laws over generated Deployments.
TEST(Spread, LawsOnGeneratedDeployments) {
  Engine e;
  std::mt19937 rng(42);
  int split = 0;
  for (int round = 0; round < 150; ++round) {
    std::string strategy;
    std::size_t groups = 1 + rng() % 4;
    // Group labels as the API server takes them, and now and then one it
    // refuses or two whose pieces would share a name.
    static const char* kOddGroups[] = {
        "pool=A_B/../x", "capacity=g0", "-bad=g1",
        "pool=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"};
    for (std::size_t g = 0; g < groups; ++g) {
      strategy += (g ? ":" : "") + (rng() % 12 == 0 ? std::string(kOddGroups[rng() % 4])
                                                    : "pool=g" + std::to_string(g));
      if (rng() % 3 == 0) strategy += ",base=" + std::to_string(rng() % 3);
      strategy += ",weight=" + std::to_string(rng() % 4);
    }
    std::uint32_t replicas = rng() % 40;
    // Replicas and names written as YAML 1.1 reads them, not only as plain
    // decimals: a leading zero (octal), hex, a sign; a name that starts with
    // digits (a name of digits alone is a number, which the API server
    // refuses as a name: invalid-document).
    std::string replicas_text = std::to_string(replicas);
    switch (rng() % 6) {
      case 0: {
        char octal[16];
        std::snprintf(octal, sizeof octal, "0%o", replicas);
        replicas_text = octal;
        break;
      }
      case 1: {
        char hex[16];
        std::snprintf(hex, sizeof hex, "0x%X", replicas);
        replicas_text = hex;
        break;
      }
      case 2:
        replicas_text = "+" + replicas_text;
        break;
      default:
        break;
    }
    std::string name =
        rng() % 5 == 0 ? std::to_string(100000 + round) + "-x" : "app" + std::to_string(round);
    std::string annotations = "  annotations:\n";
    if (rng() % 2) annotations += "    team: web\n";
    annotations += "    CustomPodScheduleStrategy: \"" + strategy + "\"\n";
    std::string x = deployment(name, rng() % 5 == 0 ? "" : "  replicas: " + replicas_text + "\n",
                               annotations, rng() % 2 ? "both:1" : "amd64only:1");
    if (rng() % 3 == 0)
      x.insert(x.find("      containers:"), "      nodeSelector:\n        disk: ssd\n");
    if (rng() % 3 == 0) x += "      volumes: []\n";
    if (rng() % 2) x = "---\n" + x;
    if (rng() % 4 == 0) x = "# Source: chart/templates/web.yaml\n" + x;
    std::string other = "---\napiVersion: v1\nkind: Service\nmetadata: {name: s}\n";
    if (rng() % 2) x += other;
    RunResult r = e.run({Input::in_memory("a.yaml", x)}, Task::Fix);
    std::string once = r.files[0].output();
    bool refused = e.find("spread-refused") != nullptr;
    split += !refused;
    EXPECT_EQ(e.fix(once), once) << x;
    EXPECT_EQ(e.run({Input::in_memory("a.yaml", once)}, Task::Remove).files[0].output(), x) << once;
    e.run({Input::in_memory("a.yaml", once)}, Task::Lint);
    for (const findings::Finding& f : e.findings)
      EXPECT_FALSE(f.fixable) << once << f.message;
    if (refused) continue;
    std::uint32_t sum = 0;
    for (const std::string& p : pieces(once))
      sum += static_cast<std::uint32_t>(std::stoul(p.substr(p.find(' ') + 1)));
    EXPECT_EQ(sum, x.find("replicas:") == std::string::npos ? 1u : replicas) << once;
  }
  EXPECT_GT(split, 75);
}

}  // namespace archfit::spread::spread_tests
