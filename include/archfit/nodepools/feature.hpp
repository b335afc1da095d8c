// Node pools as a feature of the run (docs/node-pools.md): the pools of the
// input (Karpenter NodePools and Provisioners, eksctl node groups) and of the
// configuration; a pool document's own rules and fixes (arch taints, the
// label values spreads need); and, for every planned template, whether some
// pool can run it (`no-feasible-pool`).
#pragma once

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <archfit/base/key_index.hpp>
#include <archfit/base/work_budget.hpp>
#include <archfit/nodepools/model/pool.hpp>
#include <archfit/nodepools/model/pool_set.hpp>
#include <archfit/nodepools/model/spread_labels.hpp>
#include <archfit/placement/config.hpp>
#include <archfit/run/feature.hpp>

namespace archfit::nodepools {

class NodePools : public run::Feature {
 public:
  void gather(const run::Facts& facts) override;
  std::optional<run::OwnDocument> own(const run::DocumentScope& doc) const override;
  std::unique_ptr<run::DocumentPass> pass(const run::DocumentView& doc) const override;

  // The pools the input stream defines, as written (after gather).
  const std::vector<nodepools::Pool>& stream() const { return stream_; }

 private:
  // The pools templates are checked against: the stream's and a
  // configuration's own, as fix leaves them (with the label values of
  // topology spreads). Configurations that declare no pools and change none
  // share one.
  struct Pools {
    std::vector<nodepools::Pool> own;  // copies the configuration changed, and its declared pools
    std::unique_ptr<nodepools::PoolSet> set;
  };
  const Pools& pools_for(const placement::Config& config);
  const Pools& shared();

  std::vector<const placement::Config*> configs_;  // per setting
  std::vector<nodepools::SpreadLabels> labels_;    // per setting
  std::vector<const nodepools::PoolSet*> sets_;    // per setting
  run::Task task_ = run::Task::Lint;
  WorkBudget* budget_ = nullptr;
  std::vector<nodepools::Pool> stream_;
  std::unique_ptr<Pools> shared_;
  // The others, by what makes them differ (declared pools, spread labels).
  std::unordered_map<std::string, std::unique_ptr<Pools>, KeyedHash, std::equal_to<>> pools_;
  // Whether a template went unchecked for want of budget: said once.
  mutable std::atomic<bool> unchecked_{false};
};

}  // namespace archfit::nodepools
