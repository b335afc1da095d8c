// The pool rules, each made to fire and made to stay quiet.
#include <gtest/gtest.h>

#include <archfit/nodepools/model/lint.hpp>
#include <archfit/nodepools/model/read.hpp>
#include <archfit/yaml/parse.hpp>

namespace archfit::nodepools {
namespace {

const ArchTaints kConventions{
    {"amd64", "arm64"},
    {{"amd64", {}}, {"arm64", {{"kubernetes.io/arch", "arm64", "NoSchedule"}}}}};

std::vector<std::string> rules(const std::string& text) {
  yaml::Tree tree = yaml::parse_document(text);
  std::vector<std::string> out;
  for (const Pool& p : read_pools(tree.root())) {
    for (const PoolProblem& problem : lint_pool(p, kConventions))
      out.push_back(problem.rule);
  }
  return out;
}

std::string node_pool(const std::string& spec) {
  return "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: p}\nspec:\n  template:\n   "
         " spec:\n" +
         spec;
}

using Rules = std::vector<std::string>;

TEST(PoolLint, Unconstrained) {
  EXPECT_EQ(rules(node_pool("      requirements: []\n")), Rules{"pool-arch-unconstrained"});
  EXPECT_EQ(
      rules(node_pool(
          "      requirements: [{key: kubernetes.io/arch, operator: In, values: [amd64]}]\n")),
      Rules{});
}

TEST(PoolLint, TaintMissingAndItsFix) {
  const std::string text =
      node_pool("      requirements: [{key: kubernetes.io/arch, operator: In, values: [arm64]}]\n");
  yaml::Tree tree = yaml::parse_document(text);  // the tree reads the text where it is
  std::vector<PoolProblem> problems = lint_pool(read_pools(tree.root()).at(0), kConventions);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].rule, "pool-arch-taint-missing");
  EXPECT_EQ(problems[0].add, (std::vector<Taint>{{"kubernetes.io/arch", "arm64", "NoSchedule"}}));
  EXPECT_NE(problems[0].message.find("NodePool \"p\" runs only arm64 nodes but lacks the taint "
                                     "kubernetes.io/arch=arm64:NoSchedule"),
            std::string::npos);
  // A startup taint is not the taint.
  EXPECT_EQ(
      rules(node_pool(
          "      requirements: [{key: kubernetes.io/arch, operator: In, values: [arm64]}]\n"
          "      startupTaints: [{key: kubernetes.io/arch, value: arm64, effect: NoSchedule}]\n")),
      Rules{"pool-arch-taint-missing"});
  EXPECT_EQ(rules(node_pool(
                "      requirements: [{key: kubernetes.io/arch, operator: In, values: [arm64]}]\n"
                "      taints: [{key: kubernetes.io/arch, value: arm64, effect: NoSchedule}]\n")),
            Rules{});
}

TEST(PoolLint, Overreach) {
  EXPECT_EQ(rules(node_pool(
                "      requirements: [{key: kubernetes.io/arch, operator: Exists}]\n"
                "      taints: [{key: kubernetes.io/arch, value: arm64, effect: NoSchedule}]\n")),
            Rules{"pool-arch-taint-overreach"});
}

TEST(PoolLint, NodeGroups) {
  EXPECT_EQ(rules(R"(apiVersion: eksctl.io/v1alpha5
kind: ClusterConfig
managedNodeGroups:
- {name: mixed, instanceTypes: [c5.large, c6g.large]}
- {name: arm, instanceType: m6g.large, taints: [{key: kubernetes.io/arch, value: arm64, effect: NoSchedule}]}
- {name: arm-bare, instanceType: m6g.large}
- {name: x86, instanceType: m5.large}
- {name: odd, instanceType: q9x.large}
)"),
            (Rules{"pool-mixed-arch", "pool-arch-taint-missing", "pool-unknown-arch"}));
}

}  // namespace
}  // namespace archfit::nodepools
