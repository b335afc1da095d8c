// What is wrong with a pool itself, given the taints the configuration says
// nodes of each architecture carry (architectures.<arch>.tolerations, seen
// from the node's side):
//   pool-arch-unconstrained   a Karpenter pool with no kubernetes.io/arch
//                             label or requirement
//   pool-mixed-arch           a node group whose instance types span
//                             architectures
//   pool-unknown-arch         a node group with instance types archfit
//                             cannot place
//   pool-arch-taint-missing   a pool of one architecture without that
//                             architecture's taint (fix appends it)
//   pool-arch-taint-overreach a pool carrying one architecture's taint that
//                             can run others too
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include <archfit/nodepools/model/pool.hpp>

namespace archfit::nodepools {

struct ArchTaints {
  std::set<std::string> cluster;                      // the cluster's architectures
  std::map<std::string, std::vector<Taint>> by_arch;  // what nodes of each carry
};

struct PoolProblem {
  std::string rule;
  std::string message;
  std::vector<Taint> add;  // pool-arch-taint-missing: the taints fix appends
};

std::vector<PoolProblem> lint_pool(const Pool& pool, const ArchTaints& conventions);

}  // namespace archfit::nodepools
