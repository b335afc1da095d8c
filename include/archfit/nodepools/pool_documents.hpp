// Node pools in a run: the pools of the input (read before any document is
// analysed, since a pool may come after the workloads it must host) and of
// each configuration; the pool rules on pool objects, with fix's taints; and
// every pod template checked against the pools (no-feasible-pool).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <archfit/base/work_budget.hpp>
#include <archfit/findings/finding.hpp>
#include <archfit/nodepools/model/lint.hpp>
#include <archfit/nodepools/model/pool.hpp>
#include <archfit/nodepools/model/pool_set.hpp>
#include <archfit/nodepools/model/spread_labels.hpp>
#include <archfit/placement/config.hpp>
#include <archfit/run/document_edits.hpp>
#include <archfit/run/run.hpp>
#include <archfit/yaml/node.hpp>

namespace archfit::nodepools {

using run::FileResult;
using run::PlannedTemplate;
using run::Setting;
using run::Task;

// The pools of the files' documents, in file and document order. Throws
// Error(Input) at the place of a pool field that cannot be read.
std::vector<nodepools::Pool> stream_pools(const std::vector<FileResult>& files,
                                          const std::vector<Setting>& settings);

// The taints nodes of each architecture carry, from the tolerations the
// configuration gives pods for it.
nodepools::ArchTaints arch_taints(const placement::Config& config);

struct PoolDocument {
  std::vector<findings::Finding> findings;
  std::optional<std::string> text;  // the new document text, when fix changes it
};

// The pool rules on a document that is a pool object, and with fix (and
// nodePools.fix) the taints it lacks appended, recorded in its
// archfit.io/owned annotation; --remove takes out what the record names.
// `labels`: what the configuration's spread profiles give pools.
PoolDocument analyze_pool_document(const yaml::Tree& tree, std::uint32_t first_line,
                                   const std::string& file, std::uint32_t document,
                                   const placement::Config& config,
                                   const nodepools::SpreadLabels& labels, Task task);

// The Karpenter pools as nodePools.fix leaves them: with the label values
// topology spread profiles give them (those they have no requirement on).
void give_spread_values(std::vector<nodepools::Pool>& all, const nodepools::SpreadLabels& labels);

// no-feasible-pool for a planned template, as fix leaves it, when no pool
// can run its pods; pool-fit-needs-node-names when they fit only on nodes of
// names they require; nothing when one can or there are no pools. When the
// run's budget cannot pay for the check, pools-not-checked, and `unchecked`
// is set. `comparison_operators`: the cluster enables the feature gate
// TaintTolerationComparisonOperators.
std::optional<findings::Finding> check_feasibility(const PlannedTemplate& t,
                                                   const nodepools::PoolSet& pools,
                                                   WorkBudget& budget, bool* unchecked = nullptr,
                                                   bool comparison_operators = false);

}  // namespace archfit::nodepools
