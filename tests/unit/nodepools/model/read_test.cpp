// Pools read from Karpenter NodePools and Provisioners and eksctl node groups.
#include <gtest/gtest.h>

#include <archfit/base/error.hpp>
#include <archfit/nodepools/model/instance_types.hpp>
#include <archfit/nodepools/model/read.hpp>
#include <archfit/yaml/parse.hpp>

namespace archfit::nodepools {
namespace {

std::vector<Pool> read(const std::string& text, const ReadOptions& options = {}) {
  yaml::Tree tree = yaml::parse_document(text);
  return read_pools(tree.root(), options);
}

TEST(ReadPools, NodePoolV1) {
  auto pools = read(R"(apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: arm
spec:
  weight: 10
  template:
    metadata:
      labels: {team: web}
    spec:
      requirements:
      - key: kubernetes.io/arch
        operator: In
        values: [arm64]
      - key: karpenter.sh/capacity-type
        operator: In
        values: ["spot"]
      taints:
      - {key: kubernetes.io/arch, value: arm64, effect: NoSchedule}
      startupTaints:
      - {key: node.cilium.io/agent-not-ready, effect: NoExecute}
)");
  ASSERT_EQ(pools.size(), 1u);
  const Pool& p = pools[0];
  EXPECT_EQ(p.name, "arm");
  EXPECT_EQ(p.source, PoolSource::NodePool);
  EXPECT_EQ(p.line, 1u);
  EXPECT_EQ(p.weight, 10);
  EXPECT_EQ(p.labels, (std::vector<std::pair<std::string, std::string>>{{"team", "web"}}));
  ASSERT_EQ(p.requirements.size(), 2u);
  EXPECT_EQ(describe(p.requirements[0]), "kubernetes.io/arch In [arm64]");
  EXPECT_EQ(p.taints, (std::vector<Taint>{{"kubernetes.io/arch", "arm64", "NoSchedule"}}));
  EXPECT_EQ(p.startup_taints.size(), 1u);
  EXPECT_EQ(p.archs({"amd64", "arm64"}), (std::set<std::string>{"arm64"}));
  EXPECT_TRUE(p.domain("team").allows("web"));
  EXPECT_FALSE(p.domain("tier").allows("x"));  // not defined: not on its nodes
  EXPECT_TRUE(p.domain("topology.kubernetes.io/zone").allows("eu-west-1a"));  // well known
  EXPECT_TRUE(p.domain("karpenter.sh/nodepool").allows("arm"));
  EXPECT_EQ(p.title(), "NodePool \"arm\"");
}

TEST(ReadPools, V1beta1AndProvisioner) {
  auto beta = read(R"(apiVersion: karpenter.sh/v1beta1
kind: NodePool
metadata: {name: default}
spec:
  template:
    spec:
      requirements:
      - {key: kubernetes.io/arch, operator: NotIn, values: [arm64]}
)");
  ASSERT_EQ(beta.size(), 1u);
  EXPECT_EQ(beta[0].archs({"amd64", "arm64"}), (std::set<std::string>{"amd64"}));
  auto old = read(R"(apiVersion: karpenter.sh/v1alpha5
kind: Provisioner
metadata: {name: legacy}
spec:
  labels: {pool: legacy}
  requirements:
  - {key: kubernetes.io/arch, operator: In, values: [amd64, arm64]}
  taints: [{key: dedicated, value: batch, effect: NoSchedule}]
  weight: 5
)");
  ASSERT_EQ(old.size(), 1u);
  EXPECT_EQ(old[0].source, PoolSource::Provisioner);
  EXPECT_EQ(old[0].labels.size(), 1u);
  EXPECT_EQ(old[0].taints.size(), 1u);
  EXPECT_EQ(old[0].weight, 5);
  EXPECT_TRUE(old[0].domain("karpenter.sh/provisioner-name").allows("legacy"));
}

TEST(ReadPools, EksctlNodeGroups) {
  // eksctl's taint example: taints as a list and as the older mapping.
  auto pools = read(R"(apiVersion: eksctl.io/v1alpha5
kind: ClusterConfig
metadata: {name: dev, region: us-west-2}
nodeGroups:
  - name: ng-arm
    instanceType: m6g.large
    labels: {role: workers}
    taints:
      - key: feaster
        value: "true"
        effect: NoSchedule
  - name: ng-old
    taints:
      special: "true:NoExecute"
managedNodeGroups:
  - name: mng-mixed
    instanceTypes: [c5.large, c6g.large]
  - name: mng-odd
    instanceTypes: [q9x.large]
  - name: mng-selected
    instanceSelector: {vCPUs: 2, cpuArchitecture: arm64}
    amiFamily: WindowsServer2022FullContainer
)",
                    ReadOptions{});
  ASSERT_EQ(pools.size(), 5u);
  EXPECT_EQ(pools[0].name, "ng-arm");
  EXPECT_EQ(yaml::field_text(pools[0].path), "nodeGroups[0]");
  EXPECT_EQ(pools[0].line, 5u);
  EXPECT_EQ(pools[0].instance_archs, (std::set<std::string>{"arm64"}));
  EXPECT_EQ(pools[0].taints, (std::vector<Taint>{{"feaster", "true", "NoSchedule"}}));
  EXPECT_TRUE(pools[0].domain("role").allows("workers"));
  EXPECT_FALSE(pools[0].domain("kubernetes.io/arch").allows("amd64"));
  EXPECT_TRUE(pools[0].domain("eks.amazonaws.com/nodegroup").allows("ng-arm"));
  EXPECT_EQ(pools[1].instance_types, (std::vector<std::string>{"m5.large"}));  // eksctl's default
  EXPECT_EQ(pools[1].taints, (std::vector<Taint>{{"special", "true", "NoExecute"}}));
  EXPECT_EQ(yaml::field_text(pools[2].path), "managedNodeGroups[0]");
  EXPECT_EQ(pools[2].instance_archs, (std::set<std::string>{"amd64", "arm64"}));
  EXPECT_EQ(pools[3].unknown_types, (std::vector<std::string>{"q9x.large"}));
  EXPECT_TRUE(pools[3].domain("kubernetes.io/arch").allows("arm64"));  // unknown: either
  EXPECT_EQ(pools[4].instance_archs, (std::set<std::string>{"arm64"}));
  EXPECT_EQ(pools[4].os, "windows");
  // What archfit is told of a type it does not know.
  auto told = read(R"(apiVersion: eksctl.io/v1alpha5
kind: ClusterConfig
managedNodeGroups: [{name: g, instanceTypes: [q9x.large]}]
)",
                   ReadOptions{{{"q9x.large", "arm64"}}});
  EXPECT_EQ(told[0].instance_archs, (std::set<std::string>{"arm64"}));
  EXPECT_TRUE(told[0].unknown_types.empty());
}

TEST(ReadPools, OtherObjectsGiveNone) {
  EXPECT_TRUE(read("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: NodePool}\n").empty());
  EXPECT_TRUE(read("apiVersion: example.com/v1\nkind: NodePool\n").empty());
  EXPECT_TRUE(may_hold_pools("apiVersion: karpenter.sh/v1\nkind: NodePool"));
  EXPECT_TRUE(may_hold_pools("apiVersion: karpenter.sh/v1alpha5\nkind: Provisioner"));
  EXPECT_TRUE(may_hold_pools("apiVersion: eksctl.io/v1alpha5\nkind: ClusterConfig"));
  // A kind without its group, or a group without a pool kind, is no pool.
  EXPECT_FALSE(may_hold_pools("kind: NodePool"));
  EXPECT_FALSE(may_hold_pools("apiVersion: eksctl.io/v1alpha5\nkind: NodePool"));
  EXPECT_FALSE(may_hold_pools("kind: Deployment\nnodeSelector: {karpenter.sh/nodepool: a}"));
}

TEST(ReadPools, BadFieldsAreErrorsAtTheirPlace) {
  auto error_of = [](const std::string& text) {
    try {
      read(text);
    } catch (const Error& e) {
      return std::to_string(e.where().line) + ":" + std::to_string(e.where().column) + ": " +
             e.message();
    }
    return std::string("no error");
  };
  EXPECT_EQ(error_of(R"(apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: x}
spec:
  template:
    spec:
      requirements:
      - {key: kubernetes.io/arch, operator: Equals, values: [arm64]}
)"),
            "8:45: \"Equals\" is not an operator; use In, NotIn, Exists, DoesNotExist, Gt, Lt, Gte "
            "or Lte");
  // Gte and Lte came with karpenter.sh/v1.
  EXPECT_EQ(error_of(R"(apiVersion: karpenter.sh/v1beta1
kind: NodePool
metadata: {name: x}
spec:
  template:
    spec:
      requirements:
      - {key: karpenter.k8s.aws/instance-cpu, operator: Gte, values: ['4']}
)"),
            "8:57: Gte is an operator of karpenter.sh/v1 NodePools; this API version takes In, "
            "NotIn, Exists, DoesNotExist, Gt or Lt");
  EXPECT_EQ(error_of(R"(apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: x}
spec:
  template:
    spec:
      requirements:
      - {key: karpenter.k8s.aws/instance-cpu, operator: Gte, values: ['4']}
)"),
            "no error");
  EXPECT_EQ(error_of(R"(apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: x}
spec:
  template:
    spec:
      taints:
      - {key: a, effect: Never}
)"),
            "8:26: a taint has effect \"Never\"; use NoSchedule, PreferNoSchedule or NoExecute");
  EXPECT_EQ(error_of("apiVersion: karpenter.sh/v1\nkind: NodePool\nspec:\n  weight: heavy\n"),
            "4:11: weight must be an integer from 1 to 100");
}

TEST(InstanceTypes, GravitonAndTheOthers) {
  for (const char* arm :
       {"m6g.large", "c6gn.xlarge", "t4g.micro", "a1.medium", "im4gn.large", "is4gen.xlarge",
        "x2gd.large", "g5g.xlarge", "mac2-m2pro.metal", "c8g.48xlarge", "r7gd.medium"}) {
    EXPECT_EQ(aws_instance_arch(arm), "arm64") << arm;
  }
  for (const char* x86 :
       {"m5.large", "m7i-flex.large", "c5n.18xlarge", "g4dn.xlarge", "p4d.24xlarge", "inf2.xlarge",
        "mac1.metal", "u-6tb1.metal", "t3a.nano", "i4i.large", "hpc7a.96xlarge"}) {
    EXPECT_EQ(aws_instance_arch(x86), "amd64") << x86;
  }
  for (const char* unknown : {"q9x.large", "n2-standard-4", "Standard_D4ps_v5", "large", ""}) {
    EXPECT_EQ(aws_instance_arch(unknown), std::nullopt) << unknown;
  }
}

}  // namespace
}  // namespace archfit::nodepools
