// Report writers on threads of their own, beside the run: what the run reports
// is held in batches of a few hundred events, and each batch is handed to every
// writer's thread, which writes it in order while the run goes on. A few
// batches wait at most; then the run waits for the slowest writer.
#pragma once

#include <memory>
#include <string>
#include <variant>
#include <vector>

#include <archfit/findings/finding.hpp>
#include <archfit/report/report.hpp>

namespace archfit::cli {

// What a run reports, in order: a finding, a workload it read, the diff of a
// file (fix --diff).
struct ReportDiff {
  std::string text;
};
using ReportEvent = std::variant<findings::Finding, report::WorkloadSeen, ReportDiff>;

// The event into the writer: add(), add_workload() or add_diff().
void write_event(report::Writer& writer, const ReportEvent& e);

// Up to this many cores, the run keeps every core busy analysing documents
// while one of its threads writes the reports between windows: threads of
// the reports' own would only take turns with the run's, and cost more
// (bench/JOURNAL.md, "Reports on the run's thread"). With more, writing
// every report on that one thread would hold the others up.
inline constexpr unsigned kCoresTheRunWritesOn = 4;

// Whether several reports are written on threads of their own, on a machine
// with `cores` cores.
bool writes_beside_the_run(unsigned cores);

class ReportLanes {
 public:
  // A thread for each writer; the writers must outlive the lanes.
  explicit ReportLanes(const std::vector<report::Writer*>& writers);
  ~ReportLanes();
  ReportLanes(const ReportLanes&) = delete;
  ReportLanes& operator=(const ReportLanes&) = delete;

  // After the events added before it. Throws what stopped a writer on the
  // way, at the latest by close().
  void add(ReportEvent event);
  // Every event added is written when it returns; throws what stopped a writer.
  void close();

 private:
  using Batch = std::vector<ReportEvent>;
  class Lane;
  void hand_over();

  std::vector<std::unique_ptr<Lane>> lanes_;
  Batch held_;
};

}  // namespace archfit::cli
