// Feasibility as the kube-scheduler decides it, one node as a declared pool
// and one pod as its spec, row by row from the scheduler's own test tables:
// component-helpers' TestPodMatchesNodeSelectorAndAffinityTerms (the
// NodeAffinity plugin's node affinity and nodeSelector matching), and
// k8s.io/api core/v1's TestTolerationToleratesTaint and
// TestCompareNumericValues (Toleration.ToleratesTaint, with the gate
// TaintTolerationComparisonOperators). A row's name is the scheduler test's.
// Node names are not known offline: a row that fits by a node's name fits
// here "by name", which archfit reports as a warning.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <archfit/base/error.hpp>
#include <archfit/nodepools/model/feasibility.hpp>
#include <archfit/nodepools/model/read.hpp>
#include <archfit/yaml/parse.hpp>
#include <archfit/yaml/value.hpp>

namespace archfit::nodepools {
namespace {

// A node that carries exactly `labels`: a declared pool with no well-known
// label of its own.
Pool node_with(std::vector<std::pair<std::string, std::string>> labels) {
  Pool p;
  p.name = "node";
  p.source = PoolSource::Declared;
  p.labels = std::move(labels);
  p.well_known = std::set<std::string>{};
  return p;
}

PodNeeds pod(const std::string& spec) {
  yaml::Tree tree = yaml::parse_document(spec);
  return needs_of(yaml::to_value(tree.root()));
}

std::string affinity(const std::string& terms) {
  return "affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
         "{nodeSelectorTerms: " +
         terms + "}}}\n";
}

enum class Want { Fits, FitsByName, No };

struct Row {
  const char* name;  // the scheduler test's
  std::string spec;
  std::vector<std::pair<std::string, std::string>> labels;
  Want want;
};

TEST(SchedulerNodeAffinity, TestPodMatchesNodeSelectorAndAffinityTerms) {
  const std::vector<std::pair<std::string, std::string>> foo_bar = {{"foo", "bar"}};
  const std::vector<Row> rows = {
      {"no selector", "{}", {}, Want::Fits},
      {"missing labels", "nodeSelector: {foo: bar}\n", {}, Want::No},
      {"same labels", "nodeSelector: {foo: bar}\n", foo_bar, Want::Fits},
      {"node labels are superset",
       "nodeSelector: {foo: bar}\n",
       {{"foo", "bar"}, {"baz", "blah"}},
       Want::Fits},
      {"node labels are subset", "nodeSelector: {foo: bar, baz: blah}\n", foo_bar, Want::No},
      {"Pod with matchExpressions using In operator that matches the existing node",
       affinity("[{matchExpressions: [{key: foo, operator: In, values: [bar, value2]}]}]"), foo_bar,
       Want::Fits},
      {"Pod with matchExpressions using Gt operator that matches the existing node",
       affinity("[{matchExpressions: [{key: kernel-version, operator: Gt, values: ['0204']}]}]"),
       {{"kernel-version", "0206"}},
       Want::Fits},
      {"Pod with matchExpressions using NotIn operator that matches the existing node",
       affinity("[{matchExpressions: [{key: mem-type, operator: NotIn, values: [DDR, DDR2]}]}]"),
       {{"mem-type", "DDR3"}},
       Want::Fits},
      {"Pod with matchExpressions using Exists operator that matches the existing node",
       affinity("[{matchExpressions: [{key: GPU, operator: Exists}]}]"),
       {{"GPU", "NVIDIA-GRID-K1"}},
       Want::Fits},
      {"Pod with affinity that don't match node's labels won't schedule onto the node",
       affinity("[{matchExpressions: [{key: foo, operator: In, values: [value1, value2]}]}]"),
       foo_bar, Want::No},
      {"Pod with a nil []NodeSelectorTerm in affinity, can't match the node's labels and won't "
       "schedule onto the node",
       affinity("null"), foo_bar, Want::No},
      {"Pod with an empty []NodeSelectorTerm in affinity, can't match the node's labels and "
       "won't schedule onto the node",
       affinity("[]"), foo_bar, Want::No},
      {"Pod with empty MatchExpressions is not a valid value will match no objects and won't "
       "schedule onto the node",
       affinity("[{matchExpressions: []}]"), foo_bar, Want::No},
      {"Pod with no Affinity will schedule onto a node", "{}", foo_bar, Want::Fits},
      {"Pod with Affinity but nil NodeSelector will schedule onto a node",
       "affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: null}}\n",
       foo_bar, Want::Fits},
      {"Pod with multiple matchExpressions ANDed that matches the existing node",
       affinity("[{matchExpressions: [{key: GPU, operator: Exists}, {key: GPU, operator: NotIn, "
                "values: [AMD, INTER]}]}]"),
       {{"GPU", "NVIDIA-GRID-K1"}},
       Want::Fits},
      {"Pod with multiple matchExpressions ANDed that doesn't match the existing node",
       affinity("[{matchExpressions: [{key: GPU, operator: Exists}, {key: GPU, operator: In, "
                "values: [AMD, INTER]}]}]"),
       {{"GPU", "NVIDIA-GRID-K1"}},
       Want::No},
      {"Pod with multiple NodeSelectorTerms ORed in affinity, matches the node's labels and "
       "will schedule onto the node",
       affinity("[{matchExpressions: [{key: foo, operator: In, values: [bar, value2]}]}, "
                "{matchExpressions: [{key: diffkey, operator: In, values: [wrong, value2]}]}]"),
       foo_bar, Want::Fits},
      {"Pod with an Affinity and a PodSpec.NodeSelector(the old thing that we are deprecating) "
       "both are satisfied, will schedule onto the node",
       "nodeSelector: {foo: bar}\n" +
           affinity("[{matchExpressions: [{key: foo, operator: Exists}]}]"),
       foo_bar, Want::Fits},
      {"Pod with an Affinity matches node's labels but the PodSpec.NodeSelector(the old thing "
       "that we are deprecating) is not satisfied, won't schedule onto the node",
       "nodeSelector: {foo: bar}\n" +
           affinity("[{matchExpressions: [{key: foo, operator: Exists}]}]"),
       {{"foo", "barrrrrr"}},
       Want::No},
      {"Pod with an invalid value in Affinity term won't be scheduled onto the node",
       affinity("[{matchExpressions: [{key: foo, operator: NotIn, values: ['invalid value: "
                "___@#$%^']}]}]"),
       foo_bar, Want::No},
      {"Pod with matchFields using In operator that matches the existing node",
       affinity("[{matchFields: [{key: metadata.name, operator: In, values: [node_1]}]}]"),
       {},
       Want::FitsByName},
      {"Pod with two terms: matchFields does not match, but matchExpressions matches",
       affinity("[{matchFields: [{key: metadata.name, operator: In, values: [node_1]}]}, "
                "{matchExpressions: [{key: foo, operator: In, values: [bar]}]}]"),
       foo_bar, Want::Fits},
      {"Pod with one term: both matchFields and matchExpressions match",
       affinity("[{matchFields: [{key: metadata.name, operator: In, values: [node_1]}], "
                "matchExpressions: [{key: foo, operator: In, values: [bar]}]}]"),
       foo_bar, Want::FitsByName},
      {"Pod with one term: matchFields does not match, but matchExpressions matches",
       affinity("[{matchFields: [{key: metadata.name, operator: In, values: [node_1]}], "
                "matchExpressions: [{key: foo, operator: In, values: [bar]}]}]"),
       {{"foo", "baz"}},
       Want::No},
      // archfit's own rows on names: two names of one node never match; the
      // hostname label names a node as matchFields do.
      {"two different names in one term match no node",
       affinity("[{matchFields: [{key: metadata.name, operator: In, values: [a]}, "
                "{key: metadata.name, operator: In, values: [b]}]}]"),
       {},
       Want::No},
      {"a name required and excluded matches no node",
       affinity("[{matchFields: [{key: metadata.name, operator: In, values: [a]}, "
                "{key: metadata.name, operator: NotIn, values: [a]}]}]"),
       {},
       Want::No},
      {"kubernetes.io/hostname In names nodes",
       affinity("[{matchExpressions: [{key: kubernetes.io/hostname, operator: In, values: "
                "[anything]}]}]"),
       {{"kubernetes.io/hostname", "anything"}},
       Want::FitsByName},
  };
  for (const Row& row : rows) {
    bool by_name = false;
    std::optional<std::string> why = why_not(pod(row.spec), node_with(row.labels), &by_name);
    switch (row.want) {
      case Want::Fits:
        EXPECT_EQ(why, std::nullopt) << row.name;
        EXPECT_FALSE(by_name) << row.name;
        break;
      case Want::FitsByName:
        EXPECT_EQ(why, std::nullopt) << row.name;
        EXPECT_TRUE(by_name) << row.name;
        break;
      case Want::No:
        EXPECT_NE(why, std::nullopt) << row.name;
        break;
    }
  }
}

// What the scheduler cannot read matches no node, in its words.
TEST(SchedulerNodeAffinity, WhatItCannotReadMatchesNoNodeInItsWords) {
  Pool node = node_with({{"foo", "bar"}});
  EXPECT_EQ(why_not(pod(affinity("[{matchExpressions: []}]")), node),
            "node(s) didn't match Pod's node affinity/selector: the term nodeSelectorTerms[0] "
            "matches no node: it has no matchExpressions and no matchFields");
  std::optional<std::string> invalid = why_not(
      pod(affinity("[{matchExpressions: [{key: foo, operator: NotIn, values: ['a b']}]}]")), node);
  ASSERT_TRUE(invalid);
  EXPECT_NE(invalid->find("it cannot read the requirement foo NotIn [a b]: its value \"a b\" is "
                          "not a label value"),
            std::string::npos)
      << *invalid;
  EXPECT_NE(why_not(pod("nodeSelector: {foo: 'a b'}\n"), node), std::nullopt);
}

struct TolerationRow {
  const char* description;  // TestTolerationToleratesTaint's
  Toleration toleration;
  Taint taint;
  bool gate;
  bool tolerated;
};

TEST(SchedulerTaintToleration, TestTolerationToleratesTaint) {
  const char* sla = "node.kubernetes.io/sla";
  const std::vector<TolerationRow> rows = {
      {"toleration and taint have the same key and effect, and operator is Exists, and taint has "
       "no value, expect tolerated",
       {"foo", "Exists", "", "NoSchedule"},
       {"foo", "", "NoSchedule"},
       false,
       true},
      {"toleration and taint have the same key and effect, and operator is Exists, and taint has "
       "some value, expect tolerated",
       {"foo", "Exists", "", "NoSchedule"},
       {"foo", "bar", "NoSchedule"},
       false,
       true},
      {"toleration and taint have the same effect, toleration has empty key and operator is "
       "Exists, means match all taints, expect tolerated",
       {"", "Exists", "", "NoSchedule"},
       {"foo", "bar", "NoSchedule"},
       false,
       true},
      {"toleration and taint have the same key, effect and value, and operator is Equal, expect "
       "tolerated",
       {"foo", "Equal", "bar", "NoSchedule"},
       {"foo", "bar", "NoSchedule"},
       false,
       true},
      {"toleration and taint have the same key and effect, but different values, and operator "
       "is Equal, expect not tolerated",
       {"foo", "Equal", "value1", "NoSchedule"},
       {"foo", "value2", "NoSchedule"},
       false,
       false},
      {"toleration and taint have the same key and value, but different effects, and operator "
       "is Equal, expect not tolerated",
       {"foo", "Equal", "bar", "NoSchedule"},
       {"foo", "bar", "NoExecute"},
       false,
       false},
      {"toleration with Gt operator - taint value less than toleration value, expect not "
       "tolerated",
       {sla, "Gt", "950", "NoSchedule"},
       {sla, "800", "NoSchedule"},
       true,
       false},
      {"toleration with Gt operator - taint value greater than toleration value, expect "
       "tolerated",
       {sla, "Gt", "750", "NoSchedule"},
       {sla, "950", "NoSchedule"},
       true,
       true},
      {"toleration with Lt operator - taint value greater than toleration value, expect not "
       "tolerated",
       {sla, "Lt", "800", "NoSchedule"},
       {sla, "950", "NoSchedule"},
       true,
       false},
      {"toleration with Lt operator - taint value less than toleration value, expect tolerated",
       {sla, "Lt", "950", "NoSchedule"},
       {sla, "800", "NoSchedule"},
       true,
       true},
      {"toleration with Gt operator and taint with equal numeric value, expect not tolerated",
       {sla, "Gt", "950", "NoSchedule"},
       {sla, "950", "NoSchedule"},
       true,
       false},
      {"toleration with Gt operator and taint with non-numeric value, expect not tolerated",
       {sla, "Gt", "950", "NoSchedule"},
       {sla, "high", "NoSchedule"},
       true,
       false},
      {"toleration with Gt operator and negative numeric values - taint value less than "
       "threshold, expect not tolerated",
       {"test-key", "Gt", "-100", "NoSchedule"},
       {"test-key", "-200", "NoSchedule"},
       true,
       false},
      {"toleration with Gt operator and large int64 values - taint value less than threshold, "
       "expect not tolerated",
       {"test-key", "Gt", "9223372036854775806", "NoSchedule"},
       {"test-key", "100", "NoSchedule"},
       true,
       false},
      // Without the gate, Gt and Lt tolerate nothing (the API server refuses them).
      {"without TaintTolerationComparisonOperators, Gt tolerates nothing",
       {sla, "Gt", "750", "NoSchedule"},
       {sla, "950", "NoSchedule"},
       false,
       false},
  };
  for (const TolerationRow& row : rows)
    EXPECT_EQ(tolerates(row.toleration, row.taint, row.gate), row.tolerated) << row.description;
}

TEST(SchedulerTaintToleration, TestCompareNumericValues) {
  struct Compare {
    const char* description;
    const char* toleration;
    const char* taint;
    const char* op;
    bool expected;
  };
  const std::vector<Compare> rows = {
      {"Gt operator - taint value greater than toleration value, expect true", "100", "200", "Gt",
       true},
      {"Gt operator - taint value less than toleration value, expect false", "200", "100", "Gt",
       false},
      {"Gt operator - taint value equal to toleration value, expect false", "100", "100", "Gt",
       false},
      {"Gt operator - negative numbers, taint greater, expect true", "-100", "-50", "Gt", true},
      {"Gt operator - negative numbers, taint less, expect false", "-50", "-100", "Gt", false},
      {"Gt operator - zero and positive, expect true", "0", "1", "Gt", true},
      {"Gt operator - large int64 values, taint greater, expect true", "9223372036854775806",
       "9223372036854775807", "Gt", true},
      {"Lt operator - taint value less than toleration value, expect true", "200", "100", "Lt",
       true},
      {"Lt operator - taint value greater than toleration value, expect false", "100", "200", "Lt",
       false},
      {"Lt operator - taint value equal to toleration value, expect false", "100", "100", "Lt",
       false},
      {"Lt operator - negative numbers, taint less, expect true", "-50", "-100", "Lt", true},
      {"Lt operator - negative numbers, taint greater, expect false", "-100", "-50", "Lt", false},
      {"Lt operator - zero and negative, expect true", "0", "-1", "Lt", true},
      {"Gt operator - invalid toleration value (non-numeric), expect false", "abc", "100", "Gt",
       false},
      {"Gt operator - invalid toleration value (empty string), expect false", "", "100", "Gt",
       false},
      {"Gt operator - invalid toleration value (leading zero), expect false", "0100", "200", "Gt",
       false},
      {"Gt operator - invalid toleration value (plus sign), expect false", "+100", "200", "Gt",
       false},
      {"Gt operator - invalid toleration value (floating point), expect false", "100.5", "200",
       "Gt", false},
      {"Gt operator - invalid toleration value (just minus sign), expect false", "-", "100", "Gt",
       false},
      {"Gt operator - invalid taint value (non-numeric), expect false", "100", "xyz", "Gt", false},
      {"Gt operator - invalid taint value (empty string), expect false", "100", "", "Gt", false},
      {"Gt operator - invalid taint value (leading zero), expect false", "100", "0200", "Gt",
       false},
      {"Lt operator - invalid taint value (plus sign), expect false", "100", "+200", "Lt", false},
      {"Lt operator - invalid taint value (spaces), expect false", "100", " 200 ", "Lt", false},
      {"Gt operator - both zero, expect false", "0", "0", "Gt", false},
      {"Lt operator - both zero, expect false", "0", "0", "Lt", false},
      {"Gt operator - max int64 as taint, expect true", "0", "9223372036854775807", "Gt", true},
      {"Lt operator - min int64 as taint, expect true", "0", "-9223372036854775808", "Lt", true},
  };
  for (const Compare& row : rows) {
    Toleration t{"k", row.op, row.toleration, ""};
    EXPECT_EQ(tolerates(t, Taint{"k", row.taint, "NoSchedule"}, true), row.expected)
        << row.description;
  }
}

PodNeeds linux_pod() {
  PodNeeds n;
  n.oses = std::set<std::string>{"linux"};
  n.archs = std::set<std::string>{"amd64"};
  n.tolerations.push_back(Toleration{"", "Exists", "", ""});
  return n;
}

Pool read_one(const std::string& text) {
  yaml::Tree tree = yaml::parse_document(text);
  std::vector<Pool> pools = read_pools(tree.root());
  EXPECT_EQ(pools.size(), 1u);
  return pools.at(0);
}

// Images that run on Linux only fit no Windows pool: a Karpenter NodePool
// that requires Windows, an eksctl node group of a Windows AMI.
TEST(SchedulerOperatingSystem, LinuxImagesFitNoWindowsPool) {
  Pool karpenter = read_one(R"(apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: windows}
spec:
  template:
    spec:
      requirements:
      - {key: kubernetes.io/os, operator: In, values: [windows]}
)");
  std::optional<std::string> why = why_not(linux_pod(), karpenter);
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("kubernetes.io/os"), std::string::npos) << *why;
  Pool eksctl = read_one(R"(apiVersion: eksctl.io/v1alpha5
kind: ClusterConfig
metadata: {name: c, region: eu-west-1}
nodeGroups:
- name: windows-ng
  amiFamily: WindowsServer2022FullContainer
  instanceType: m5.large
)");
  EXPECT_NE(why_not(linux_pod(), eksctl), std::nullopt);
  PodNeeds windows = linux_pod();
  windows.oses = std::set<std::string>{"windows"};
  EXPECT_EQ(why_not(windows, eksctl), std::nullopt);
}

// A declared pool's nodes carry the well-known labels it says; by default
// every one a node group's nodes carry.
TEST(SchedulerDeclaredPools, CarryTheWellKnownLabelsTheySay) {
  PodNeeds no_zone =
      pod(affinity("[{matchExpressions: [{key: topology.kubernetes.io/zone, operator: "
                   "DoesNotExist}]}]"));
  Pool bare_metal;
  bare_metal.name = "metal";
  bare_metal.source = PoolSource::Declared;
  bare_metal.well_known =
      std::set<std::string>{"kubernetes.io/arch", "kubernetes.io/os", "kubernetes.io/hostname"};
  EXPECT_EQ(why_not(no_zone, bare_metal), std::nullopt);
  Pool cloud;
  cloud.name = "cloud";
  cloud.source = PoolSource::Declared;
  EXPECT_NE(why_not(no_zone, cloud), std::nullopt);
}

// A Node may not carry two taints of one key and effect: such a pool is refused.
TEST(SchedulerTaints, TwoTaintsOfOneKeyAndEffectAreRefused) {
  yaml::Tree tree = yaml::parse_document(R"(apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: twice}
spec:
  template:
    spec:
      requirements: []
      taints:
      - {key: dedicated, value: a, effect: NoSchedule}
      - {key: dedicated, value: b, effect: NoSchedule}
)");
  try {
    read_pools(tree.root());
    FAIL() << "a pool with two taints of one key and effect was read";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("a second taint with key dedicated and effect NoSchedule"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace archfit::nodepools
