// Karpenter's own scheduling cases, translated: each row names the test in
// kubernetes-sigs/karpenter it comes from
// (pkg/controllers/provisioning/scheduling/suite_test.go, topology_test.go)
// and says whether Karpenter schedules the pod on the NodePool. archfit's
// no-feasible-pool must agree wherever both can know the answer.
#include <gtest/gtest.h>

#include <archfit/nodepools/model/feasibility.hpp>
#include <archfit/nodepools/model/labels.hpp>
#include <archfit/nodepools/model/read.hpp>
#include <archfit/yaml/parse.hpp>
#include <archfit/yaml/value.hpp>

namespace archfit::nodepools {
namespace {

struct Case {
  const char* name;
  const char* karpenter_test;  // the It(...) it comes from
  const char* pool_spec;       // lines under spec.template (labels and requirements)
  const char* pod_spec;        // a pod spec
  bool schedules;
  const char* api_version = "karpenter.sh/v1";
};

Pool pool_of(const Case& c) {
  std::string kind =
      std::string(c.api_version) == "karpenter.sh/v1alpha5" ? "Provisioner" : "NodePool";
  std::string text = "apiVersion: " + std::string(c.api_version) + "\nkind: " + kind +
                     "\nmetadata: {name: default}\nspec:\n";
  if (kind == "NodePool") {
    text += "  template:\n" + std::string(c.pool_spec);
  } else {
    text += c.pool_spec;
  }
  yaml::Tree tree = yaml::parse_document(text);
  std::vector<Pool> pools = read_pools(tree.root());
  EXPECT_EQ(pools.size(), 1u) << text;
  return pools.at(0);
}

// An empty template: Karpenter's default NodePool in its tests.
constexpr const char* kNone = "    spec:\n      requirements: []\n";
constexpr const char* kZone1 =
    "    spec:\n      requirements:\n      - {key: topology.kubernetes.io/zone, operator: In, "
    "values: "
    "[test-zone-1]}\n";
constexpr const char* kTestKey =
    "    spec:\n      requirements:\n      - {key: test-key, operator: In, values: [test-value]}\n";
constexpr const char* kLabelled = "    metadata:\n      labels: {test-key: test-value}\n";
constexpr const char* kInteger =
    "    spec:\n      requirements:\n      - {key: integer, operator: Gte, values: ['16']}\n";
constexpr const char* kIntegerLte =
    "    spec:\n      requirements:\n      - {key: integer, operator: Lte, values: ['2']}\n";

const Case kCases[] = {
    {"SelectorOnTemplateLabel", "should schedule pods that have matching node selectors", kLabelled,
     "nodeSelector: {test-key: test-value}\n", true},
    {"ConflictingSelector", "should not schedule pods that have conflicting node selectors",
     kLabelled, "nodeSelector: {test-key: different-value}\n", false},
    {"UndefinedKeySelector", "should not schedule pods that have node selectors with undefined key",
     kNone, "nodeSelector: {test-key: test-value}\n", false},
    {"HostnameSelector", "should not schedule nodes with a hostname selector", kNone,
     "nodeSelector: {kubernetes.io/hostname: red-node}\n", false},
    {"UnknownZone", "should not schedule the pod if nodeselector unknown", kZone1,
     "nodeSelector: {topology.kubernetes.io/zone: unknown}\n", false},
    {"ZoneInPool", "should use node selectors", kZone1,
     "nodeSelector: {topology.kubernetes.io/zone: test-zone-1}\n", true},
    {"ZoneUndefined", "should schedule compatible requirements with Operator=In", kNone,
     "nodeSelector: {topology.kubernetes.io/zone: test-zone-3}\n", true},
    {"Gte", "should schedule compatible requirements with Operator=Gte", kInteger,
     "nodeSelector: {integer: '16'}\n", true},
    {"GteBelow",
     "should schedule compatible requirements with Operator=Gte (a value below the bound)",
     kInteger, "nodeSelector: {integer: '8'}\n", false},
    {"Lte", "should schedule compatible requirements with Operator=Lte", kIntegerLte,
     "nodeSelector: {integer: '2'}\n", true},
    {"RestrictedLabel", "should not schedule pods that have node selectors with restricted labels",
     kNone,
     "affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
     "{nodeSelectorTerms: "
     "[{matchExpressions: [{key: kubernetes.io/hostname, operator: In, values: [test]}]}]}}}\n",
     false},
    {"RestrictedDomain",
     "should not schedule pods that have node selectors with restricted domains", kNone,
     "affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
     "{nodeSelectorTerms: "
     "[{matchExpressions: [{key: karpenter.sh/test, operator: In, values: [test]}]}]}}}\n",
     false},
    {"WellKnownZone",
     "should schedule pods that have node selectors with label in wellknown label list", kNone,
     "nodeSelector: {topology.kubernetes.io/zone: test-zone-1}\n", true},
    {"WellKnownType",
     "should schedule pods that have node selectors with label in wellknown label list", kNone,
     "nodeSelector: {node.kubernetes.io/instance-type: default-instance-type}\n", true},
    {"WellKnownArch",
     "should schedule pods that have node selectors with label in wellknown label list", kNone,
     "nodeSelector: {kubernetes.io/arch: arm64}\n", true},
    {"WellKnownOs",
     "should schedule pods that have node selectors with label in wellknown label list", kNone,
     "nodeSelector: {kubernetes.io/os: linux}\n", true},
    {"WellKnownCapacity",
     "should schedule pods that have node selectors with label in wellknown label list", kNone,
     "nodeSelector: {karpenter.sh/capacity-type: spot}\n", true},
    {"InUndefined",
     "should not schedule pods that have node selectors with In operator and undefined key", kNone,
     "affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
     "{nodeSelectorTerms: "
     "[{matchExpressions: [{key: test-key, operator: In, values: [test-value]}]}]}}}\n",
     false},
    {"NotInUndefined",
     "should schedule pods that have node selectors with NotIn operator and undefined key", kNone,
     "affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
     "{nodeSelectorTerms: "
     "[{matchExpressions: [{key: test-key, operator: NotIn, values: [test-value]}]}]}}}\n",
     true},
    {"ExistsUndefined",
     "should not schedule pods that have node selectors with Exists operator and undefined key",
     kNone,
     "affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
     "{nodeSelectorTerms: "
     "[{matchExpressions: [{key: test-key, operator: Exists}]}]}}}\n",
     false},
    {"DoesNotExistUndefined",
     "should schedule pods that with DoesNotExists operator and undefined key", kNone,
     "affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
     "{nodeSelectorTerms: "
     "[{matchExpressions: [{key: test-key, operator: DoesNotExist}]}]}}}\n",
     true},
    {"InDefined",
     "should schedule pods that have node selectors with matching value and In operator", kTestKey,
     "affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
     "{nodeSelectorTerms: "
     "[{matchExpressions: [{key: test-key, operator: In, values: [test-value]}]}]}}}\n",
     true},
    {"NotInDefined",
     "should not schedule pods that have node selectors with matching value and NotIn operator",
     kTestKey,
     "affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
     "{nodeSelectorTerms: "
     "[{matchExpressions: [{key: test-key, operator: NotIn, values: [test-value]}]}]}}}\n",
     false},
    {"ExistsDefined", "should schedule the pod with Exists operator and defined key", kTestKey,
     "affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
     "{nodeSelectorTerms: "
     "[{matchExpressions: [{key: test-key, operator: Exists}]}]}}}\n",
     true},
    {"DoesNotExistDefined",
     "should not schedule the pod with DoesNotExists operator and defined key", kTestKey,
     "affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
     "{nodeSelectorTerms: "
     "[{matchExpressions: [{key: test-key, operator: DoesNotExist}]}]}}}\n",
     false},
    {"UnknownTopologyKey", "should ignore unknown topology keys (topology_test.go)", kNone,
     "topologySpreadConstraints: [{maxSkew: 1, topologyKey: unknown, whenUnsatisfiable: "
     "DoNotSchedule, labelSelector: {matchLabels: {app: web}}}]\n",
     false},
    {"ZoneTopologyKey", "should balance pods across zones (match labels) (topology_test.go)", kNone,
     "topologySpreadConstraints: [{maxSkew: 1, topologyKey: topology.kubernetes.io/zone, "
     "whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: web}}}]\n",
     true},
    // Normalized labels (pkg/apis/v1/labels.go NormalizedLabels): pod requirements are
    // translated before they are compared.
    {"BetaArchAlias", "NormalizedLabels: beta.kubernetes.io/arch is kubernetes.io/arch",
     "    spec:\n      requirements:\n      - {key: kubernetes.io/arch, operator: In, values: "
     "[amd64]}\n",
     "nodeSelector: {beta.kubernetes.io/arch: arm64}\n", false},
    {"BetaZoneAlias", "NormalizedLabels: failure-domain.beta.kubernetes.io/zone", kZone1,
     "nodeSelector: {failure-domain.beta.kubernetes.io/zone: test-zone-1}\n", true},
    // WellKnownValuesForRequirements: capacity types are on-demand, spot and reserved.
    {"UnknownCapacityType", "WellKnownValuesForRequirements: karpenter.sh/capacity-type", kNone,
     "nodeSelector: {karpenter.sh/capacity-type: preemptible}\n", false},
    // A v1 NodePool's nodes carry karpenter.sh/nodepool, not the Provisioner's label.
    {"ProvisionerNameOnNodePool", "RestrictedLabelDomains: karpenter.sh (provisioner-name in v1)",
     kNone, "nodeSelector: {karpenter.sh/provisioner-name: default}\n", false},
    {"NodePoolName", "WellKnownLabels: karpenter.sh/nodepool", kNone,
     "nodeSelector: {karpenter.sh/nodepool: default}\n", true},
    {"ProvisionerName", "v1alpha5: karpenter.sh/provisioner-name on a Provisioner's nodes",
     "  requirements: []\n", "nodeSelector: {karpenter.sh/provisioner-name: default}\n", true,
     "karpenter.sh/v1alpha5"},
    // The AWS provider's labels that only some instance types carry.
    {"NoGpu", "AWS provider: karpenter.k8s.aws/instance-gpu-name is on GPU instance types only",
     kNone,
     "affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
     "{nodeSelectorTerms: "
     "[{matchExpressions: [{key: karpenter.k8s.aws/instance-gpu-name, operator: "
     "DoesNotExist}]}]}}}\n",
     true},
    {"LegacyNodeGroupLabel", "an eksctl label with only Karpenter pools given (undefined key)",
     kNone, "nodeSelector: {eks.amazonaws.com/nodegroup: workers}\n", false},
    // Instance families to architectures: an arm64 family from an amd64-only pool.
    {"ArmFamilyAmdPool", "instance family requirements and the architecture they imply",
     "    spec:\n      requirements:\n      - {key: karpenter.k8s.aws/instance-family, operator: "
     "In, "
     "values: [m7g, c7g]}\n",
     "nodeSelector: {kubernetes.io/arch: amd64}\n", false},
    {"ArmFamilyArmPod", "instance family requirements and the architecture they imply",
     "    spec:\n      requirements:\n      - {key: karpenter.k8s.aws/instance-family, operator: "
     "In, "
     "values: [m7g, c7g]}\n",
     "nodeSelector: {kubernetes.io/arch: arm64}\n", true},
};

class KarpenterCase : public ::testing::TestWithParam<Case> {};

TEST_P(KarpenterCase, SchedulesAsKarpenterDoes) {
  const Case& c = GetParam();
  yaml::Tree spec = yaml::parse_document(c.pod_spec);
  PodNeeds needs = needs_of(yaml::to_value(spec.root()));
  std::optional<std::string> why = why_not(needs, pool_of(c));
  EXPECT_EQ(!why.has_value(), c.schedules)
      << "Karpenter: " << c.karpenter_test << "\narchfit: " << why.value_or("fits");
}

INSTANTIATE_TEST_SUITE_P(Karpenter, KarpenterCase, ::testing::ValuesIn(kCases),
                         [](const auto& test) { return std::string(test.param.name); });

TEST(KarpenterMessages, SayWhyInKarpentersWords) {
  auto why = [](const char* pool_spec, const char* pod) {
    Case c{"x", "", pool_spec, pod, false};
    yaml::Tree spec = yaml::parse_document(pod);
    return why_not(needs_of(yaml::to_value(spec.root())), pool_of(c)).value_or("fits");
  };
  EXPECT_EQ(why(kNone, "nodeSelector: {test-key: v}\n"),
            "incompatible requirements, label \"test-key\" does not have known values");
  EXPECT_EQ(why(kNone, "nodeSelector: {kubernetes.io/hostname: red-node}\n"),
            "incompatible requirements, label \"kubernetes.io/hostname\" is restricted: Karpenter "
            "gives a new node no value a pod asks for");
  EXPECT_EQ(why(kNone,
                "affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
                "{nodeSelectorTerms: [{matchExpressions: [{key: kubernetes.io/arch, operator: In, "
                "values: []}]}]}}}\n"),
            // What neither can read is the scheduler's to say.
            "node(s) didn't match Pod's node affinity/selector: the term nodeSelectorTerms[0] "
            "matches no node: it cannot read the requirement kubernetes.io/arch In []: it lists no "
            "value");
  EXPECT_EQ(why(kNone, "nodeSelector: {karpenter.sh/capacity-type: preemptible}\n"),
            "incompatible requirements, key karpenter.sh/capacity-type, karpenter.sh/capacity-type "
            "In [preemptible] not in karpenter.sh/capacity-type In [on-demand reserved spot]");
}

}  // namespace
}  // namespace archfit::nodepools
