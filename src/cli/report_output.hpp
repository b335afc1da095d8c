// Where lint (and fix --check / --diff) send their reports: one or more
// formats, each to stdout or a file, every one written from the same run
// (--report FORMAT[=PATH], repeatable; --format and -o are the one-report
// spelling). A failed run shows no part of a report, and a large one costs no
// memory: one for stdout is held in a spool until the run has succeeded; one
// for a file is written as the run goes into a replacement beside the file,
// put in place only then.
// Several reports are written one after the other by the thread that hands
// the run's findings on, as one report is; on a machine with more cores than
// kCoresTheRunWritesOn, each on a thread of its own instead, beside the run
// (cli/report_lanes.hpp).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include <archfit/base/atomic_write.hpp>
#include <archfit/base/spool.hpp>
#include <archfit/report/report.hpp>
#include <archfit/run/run.hpp>

#include "cli/report_lanes.hpp"

namespace archfit::cli {

struct ReportFlags {
  std::string format;                // "" = text, unless --report
  std::string output;                // "" = stdout
  std::vector<std::string> reports;  // --report FORMAT[=PATH]
  std::string category;              // sarif automationDetails.id
  std::string source_root;           // where helm charts are, for rendered input

  // Any of --format, -o or --report was given.
  bool given() const { return !format.empty() || !output.empty() || !reports.empty(); }
};

// --format, -o/--output, --report, --category and --source-root on a command.
void add_report_flags(CLI::App* cmd, ReportFlags& flags);

// One report: a format and where it goes ("" = stdout).
struct ReportTarget {
  report::Format format = report::Format::Text;
  std::string path;
};

// The reports the flags ask for, text on stdout when none. Throws
// Error(Usage) for a format archfit does not write, two reports to stdout or
// to the same file, or --report beside --format/-o.
std::vector<ReportTarget> report_targets(const ReportFlags& flags);

class ReportOutput {
 public:
  ReportOutput(const ReportFlags& flags, findings::Severity shown);
  ~ReportOutput();

  // Findings and workloads of a run, into every report.
  run::RunSink sink();
  // What `fix --diff` would print, for the reports that show it (markdown).
  bool shows_diffs() const;
  void add_diff(std::string_view diff);

  // Finishes the reports and writes them: to stdout, or atomically to their
  // files.
  void write(const report::Summary& summary);

 private:
  struct Report {
    ReportTarget target;
    std::unique_ptr<Spool> spool;         // for stdout
    std::unique_ptr<StreamedWrite> file;  // for a file
    std::unique_ptr<report::Writer> writer;
  };
  // Runs f(report) for every report, side by side when there are several.
  template <class F>
  void each_report(F&& f);

  std::vector<std::unique_ptr<Report>> reports_;
  // With several reports written beside the run. Declared after them: its
  // threads end before the writers they write with are destroyed.
  std::unique_ptr<ReportLanes> lanes_;
};

}  // namespace archfit::cli
