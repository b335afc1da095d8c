// Node pools as a feature of the run (docs/node-pools.md): the pools of the
// input (Karpenter NodePools and Provisioners, eksctl node groups) and of the
// configuration; a pool document's own rules and fixes (arch taints, the
// label values spreads need); and, for every planned template, whether some
// pool can run it (`no-feasible-pool`).
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include <archfit/nodepools/model/pool.hpp>
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
  std::vector<const placement::Config*> configs_;  // per setting
  run::Task task_ = run::Task::Lint;
  std::vector<nodepools::Pool> stream_;
  // Per setting: the stream's pools and the configuration's, as fix leaves
  // them (with the label values of topology spreads).
  std::vector<std::vector<nodepools::Pool>> pools_;
};

}  // namespace archfit::nodepools
