#include <algorithm>

#include <archfit/nodepools/model/lint.hpp>

namespace archfit::nodepools {

namespace {

std::string join(const std::set<std::string>& items, std::string_view sep = ", ") {
  std::string out;
  for (const std::string& s : items)
    out += (out.empty() ? "" : std::string(sep)) + s;
  return out;
}

bool carries(const Pool& pool, const Taint& t) {
  return std::any_of(pool.taints.begin(), pool.taints.end(), [&t](const Taint& have) {
    return have.key == t.key && have.effect == t.effect &&
           (t.value.empty() || have.value == t.value);
  });
}

bool names_arch(const Pool& pool) {
  return pool.defines(kArchLabel) || pool.defines("beta.kubernetes.io/arch");
}

PoolProblem problem(std::string rule, std::string message, std::vector<Taint> add = {}) {
  return PoolProblem{std::move(rule), std::move(message), std::move(add)};
}

}  // namespace

std::vector<PoolProblem> lint_pool(const Pool& pool, const ArchTaints& conventions) {
  std::vector<PoolProblem> out;
  const std::string title = pool.title();
  if (pool.karpenter() && !names_arch(pool)) {
    out.push_back(
        problem("pool-arch-unconstrained",
                title +
                    " does not constrain kubernetes.io/arch: Karpenter may launch nodes of "
                    "any architecture its instance types offer (" +
                    join(conventions.cluster) +
                    " here); add a requirement such as `kubernetes.io/arch In [" +
                    join(conventions.cluster, " ") + "]` naming the architectures this pool is for",
                {}));
  }
  if (pool.source == PoolSource::NodeGroup && !pool.unknown_types.empty()) {
    std::set<std::string> types(pool.unknown_types.begin(), pool.unknown_types.end());
    out.push_back(problem("pool-unknown-arch",
                          title + ": archfit does not know the architecture of instance type " +
                              join(types) + "; name it in nodePools.instanceArchs, e.g. {" +
                              *types.begin() + ": arm64}",
                          {}));
  }
  if ((pool.source == PoolSource::NodeGroup || pool.source == PoolSource::Declared) &&
      pool.instance_archs.size() > 1) {
    out.push_back(
        problem("pool-mixed-arch",
                title + " mixes architectures (" + join(pool.instance_archs) +
                    "): its nodes share one machine image and one set of labels and taints, "
                    "so split it into one node group per architecture",
                {}));
  }
  std::set<std::string> archs = pool.archs(conventions.cluster);
  bool known = names_arch(pool) || pool.source == PoolSource::NodeGroup;
  if (known && archs.size() == 1 && pool.unknown_types.empty()) {
    const std::string& arch = *archs.begin();
    auto it = conventions.by_arch.find(arch);
    std::vector<Taint> missing;
    if (it != conventions.by_arch.end()) {
      for (const Taint& t : it->second) {
        if (!carries(pool, t)) missing.push_back(t);
      }
    }
    if (!missing.empty()) {
      std::string list;
      for (const Taint& t : missing)
        list += (list.empty() ? "" : ", ") + describe(t);
      out.push_back(
          problem("pool-arch-taint-missing",
                  title + " runs only " + arch + " nodes but lacks the taint " + list +
                      " that pods for " + arch + " tolerate (architectures." + arch +
                      ".tolerations): a pod without node affinity whose images do not run on " +
                      arch + " can land there and fail with exec format error; add the taint",
                  std::move(missing)));
    }
  }
  for (const auto& [arch, taints] : conventions.by_arch) {
    for (const Taint& t : taints) {
      if (!carries(pool, t)) continue;
      std::set<std::string> others = archs;
      others.erase(arch);
      // Another architecture whose nodes carry the same taint shares it.
      std::erase_if(others, [&](const std::string& a) {
        auto o = conventions.by_arch.find(a);
        return o != conventions.by_arch.end() &&
               std::find(o->second.begin(), o->second.end(), t) != o->second.end();
      });
      if (others.empty() || !archs.contains(arch)) continue;
      out.push_back(problem("pool-arch-taint-overreach",
                            title + " carries " + describe(t) + ", the taint of " + arch +
                                " nodes, but can also run " + join(others) + ": pods for " +
                                join(others) +
                                " that do not tolerate it are kept off those nodes; "
                                "narrow the pool with `kubernetes.io/arch In [" +
                                arch + "]` or take the taint off",
                            {}));
    }
  }
  return out;
}

}  // namespace archfit::nodepools
