// The readiness feature: while a run plans every pod template, it counts
// each workload into the readiness report (report/readiness.hpp): for each
// platform of its cluster, whether it can run there, which images keep it
// off, and whether its own constraints do. It adds no finding and changes
// nothing. A session has it when a readiness report is asked for.
#pragma once

#include <memory>
#include <vector>

#include <archfit/readiness/tally.hpp>
#include <archfit/report/readiness.hpp>
#include <archfit/run/feature.hpp>

namespace archfit::readiness {

class Readiness : public run::Feature {
 public:
  void gather(const run::Facts& facts) override;
  std::unique_ptr<run::DocumentPass> pass(const run::DocumentView& doc) const override;

  // The report of the last run.
  report::Readiness result() const;

 private:
  const std::vector<run::Setting>* settings_ = nullptr;
  std::unique_ptr<Tally> tally_ = std::make_unique<Tally>();
};

}  // namespace archfit::readiness
