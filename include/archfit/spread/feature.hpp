// Spread as a feature of the run (docs/node-pools.md): weighted spreads
// written out by splitting a Deployment into one per node group (a rewrite
// of the file before it is analysed), spreads realised as a topology spread
// (handed to placement in each template's context), the tolerations a piece
// of a split needs for its group's pools, and the findings about them.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <archfit/nodepools/feature.hpp>
#include <archfit/placement/config.hpp>
#include <archfit/run/feature.hpp>
#include <archfit/spread/spread.hpp>

namespace archfit::spread {

class Spread : public run::Feature {
 public:
  // Spreads place replicas on the pools `pools` gathers (which gathers first).
  explicit Spread(const nodepools::NodePools& pools) : pools_(pools) {}

  void gather(const run::Facts& facts) override;
  std::optional<std::string> rewrite(const run::FileResult& file) const override;
  std::optional<run::OwnDocument> own(const run::DocumentScope& doc) const override;
  std::unique_ptr<run::DocumentPass> pass(const run::DocumentView& doc) const override;

 private:
  const nodepools::NodePools& pools_;
  run::Task task_ = run::Task::Lint;
  bool split_ = true;
  bool topology_ = false;                             // a profile is realised by topology spread
  bool active_ = false;                               // a profile or PodDistributor exists
  std::vector<const placement::Config*> configs_;     // per setting
  std::vector<std::unique_ptr<SpreadWorld>> worlds_;  // per setting
  std::vector<ArchLookup> archs_;                     // per setting
};

}  // namespace archfit::spread
