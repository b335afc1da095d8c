// Whether a pod template fits a pool, and the first reason when it does not,
// in Karpenter's wording.
#include <gtest/gtest.h>

#include <archfit/nodepools/model/feasibility.hpp>
#include <archfit/nodepools/model/read.hpp>
#include <archfit/yaml/parse.hpp>
#include <archfit/yaml/value.hpp>

namespace archfit::nodepools {
namespace {

Pool pool_of(const std::string& text) {
  yaml::Tree tree = yaml::parse_document(text);
  std::vector<Pool> pools = read_pools(tree.root());
  EXPECT_EQ(pools.size(), 1u);
  return pools.at(0);
}

PodNeeds needs(const std::string& spec, std::optional<std::set<std::string>> archs = std::nullopt) {
  yaml::Tree tree = yaml::parse_document(spec);
  PodNeeds n = needs_of(yaml::to_value(tree.root()));
  n.archs = std::move(archs);
  return n;
}

const std::string kArm = R"(apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: arm}
spec:
  template:
    metadata:
      labels: {team: web}
    spec:
      requirements:
      - {key: kubernetes.io/arch, operator: In, values: [arm64]}
      - {key: karpenter.sh/capacity-type, operator: In, values: [spot]}
      taints:
      - {key: kubernetes.io/arch, value: arm64, effect: NoSchedule}
      startupTaints:
      - {key: node.cilium.io/agent-not-ready, effect: NoExecute}
)";

const std::string kTolerates =
    "tolerations: [{key: kubernetes.io/arch, operator: Equal, value: arm64, effect: NoSchedule}]\n";

TEST(Feasibility, FitsWhenEverythingAgrees) {
  Pool p = pool_of(kArm);
  EXPECT_EQ(why_not(needs(kTolerates), p), std::nullopt);
  EXPECT_EQ(why_not(needs(kTolerates + "nodeSelector: {team: web}\n", {{"amd64", "arm64"}}), p),
            std::nullopt);
  // Exists with no key tolerates everything; startup taints need nothing.
  EXPECT_EQ(why_not(needs("tolerations: [{operator: Exists}]\n"), p), std::nullopt);
}

TEST(Feasibility, EachReason) {
  Pool p = pool_of(kArm);
  EXPECT_EQ(why_not(needs("{}"), p),
            "did not tolerate taint (taint=kubernetes.io/arch=arm64:NoSchedule)");
  EXPECT_EQ(why_not(needs(kTolerates, {{"amd64"}}), p),
            "incompatible requirements, key kubernetes.io/arch, kubernetes.io/arch In [amd64] "
            "not in kubernetes.io/arch In [arm64]");
  EXPECT_EQ(why_not(needs(kTolerates + "nodeSelector: {workload: batch}\n"), p),
            "incompatible requirements, label \"workload\" does not have known values");
  EXPECT_EQ(why_not(needs(kTolerates + "nodeSelector: {team: api}\n"), p),
            "incompatible requirements, key team, team In [api] not in team In [web]");
  EXPECT_EQ(why_not(needs(kTolerates + R"(affinity:
  nodeAffinity:
    requiredDuringSchedulingIgnoredDuringExecution:
      nodeSelectorTerms:
      - matchExpressions:
        - {key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}
)"),
                    p),
            "incompatible requirements, key karpenter.sh/capacity-type, karpenter.sh/capacity-type "
            "In [on-demand] not in karpenter.sh/capacity-type In [spot]");
}

TEST(Feasibility, AnyTermMayHold) {
  Pool p = pool_of(kArm);
  std::string two_terms = kTolerates + R"(affinity:
  nodeAffinity:
    requiredDuringSchedulingIgnoredDuringExecution:
      nodeSelectorTerms:
      - matchExpressions: [{key: kubernetes.io/arch, operator: In, values: [amd64]}]
      - matchExpressions: [{key: team, operator: Exists}]
)";
  EXPECT_EQ(why_not(needs(two_terms), p), std::nullopt);
  // NotIn and DoesNotExist hold where Karpenter does not know the label.
  EXPECT_EQ(why_not(needs(kTolerates + R"(affinity:
  nodeAffinity:
    requiredDuringSchedulingIgnoredDuringExecution:
      nodeSelectorTerms:
      - matchExpressions: [{key: gpu, operator: DoesNotExist}, {key: zone, operator: NotIn, values: [a]}]
)"),
                    p),
            std::nullopt);
}

TEST(Feasibility, NodeGroupsHaveOnlyTheirLabels) {
  Pool g = pool_of(R"(apiVersion: eksctl.io/v1alpha5
kind: ClusterConfig
nodeGroups:
- {name: ng, instanceType: m5.large, labels: {role: workers}}
)");
  EXPECT_EQ(why_not(needs("nodeSelector: {role: workers}\n", {{"amd64"}}), g), std::nullopt);
  EXPECT_EQ(why_not(needs("{}", {{"arm64"}}), g),
            "incompatible requirements, key kubernetes.io/arch, kubernetes.io/arch In [arm64] "
            "not in kubernetes.io/arch In [amd64]");
  EXPECT_EQ(why_not(needs("nodeSelector: {disk: ssd}\n"), g),
            "incompatible requirements, key disk, disk In [ssd] not in disk DoesNotExist");
}

TEST(Feasibility, TolerationMatching) {
  Taint t{"dedicated", "gpu", "NoSchedule"};
  EXPECT_TRUE(tolerates(Toleration{"dedicated", "Equal", "gpu", "NoSchedule"}, t));
  EXPECT_TRUE(tolerates(Toleration{"dedicated", "Exists", "", ""}, t));
  EXPECT_FALSE(tolerates(Toleration{"dedicated", "Equal", "cpu", "NoSchedule"}, t));
  EXPECT_FALSE(tolerates(Toleration{"dedicated", "Equal", "gpu", "NoExecute"}, t));
  EXPECT_FALSE(tolerates(Toleration{"", "Equal", "", ""}, t));
}

}  // namespace
}  // namespace archfit::nodepools
