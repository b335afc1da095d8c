// Where lint (and fix --check) send their report: a format, stdout or a file
// (-o), held in a spool until the run has succeeded, so that a failed run
// prints no part of a report and a large one costs no memory.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include <archfit/base/spool.hpp>
#include <archfit/report/report.hpp>
#include <archfit/run/run.hpp>

namespace archfit::cli {

struct ReportFlags {
  std::string format = "text";
  std::string output;       // "" = stdout
  std::string category;     // sarif automationDetails.id
  std::string source_root;  // where helm charts are, for rendered input
};

// --format, -o/--output and --category on a command.
void add_report_flags(CLI::App* cmd, ReportFlags& flags);

class ReportOutput {
 public:
  ReportOutput(const ReportFlags& flags, findings::Severity shown);

  report::Format format() const { return format_; }
  // Findings and workloads of a run, into the report.
  run::RunSink sink();
  report::Writer& writer() { return *writer_; }
  // Finishes the report and writes it: to stdout, or atomically to the file.
  void write(const report::Summary& summary);

 private:
  ReportFlags flags_;
  report::Format format_;
  Spool spool_;
  std::unique_ptr<report::Writer> writer_;
};

}  // namespace archfit::cli
