// Where a session's reports go: one or more formats, each to the output or a
// file, every one written from the same run (`--report FORMAT[=PATH]`,
// repeatable; `--format` and `-o` are the one-report spelling). A failed run
// shows no part of a report, and a large one costs no memory: one for the
// output is held in a spool until the run has succeeded; one for a file is
// written as the run goes into a replacement beside the file, put in place
// only then. Every report is written by the thread that hands the run's
// findings on (bench/JOURNAL.md, "Reports on the run's thread").
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <archfit/app/output.hpp>
#include <archfit/base/atomic_write.hpp>
#include <archfit/base/spool.hpp>
#include <archfit/report/readiness.hpp>
#include <archfit/report/report.hpp>
#include <archfit/run/run.hpp>

namespace archfit::app {

struct ReportRequest {
  std::string format;                     // "" = text, unless `reports`
  std::string output;                     // "" = the output
  std::vector<std::string> reports;       // FORMAT[=PATH] each
  std::string category;                   // sarif automationDetails.id
  std::string source_root;                // where helm charts are, for rendered input
  std::size_t github_notices_before = 0;  // notices the step showed before archfit's

  // Any of format, output or reports was given.
  bool given() const { return !format.empty() || !output.empty() || !reports.empty(); }
};

// One report: a format and where it goes ("" = the output).
struct ReportTarget {
  report::Format format = report::Format::Text;
  std::string path;
  // The readiness report instead (`readiness`, `readiness-html`...), in
  // this style; `format` is then not used.
  std::optional<report::ReadinessStyle> readiness;
};

// The reports a request asks for, text on the output when none. Throws
// Error(Usage) for a format archfit does not write, two reports to the output
// or to the same file, or `reports` beside `format`/`output`.
std::vector<ReportTarget> report_targets(const ReportRequest& request);

class Reports {
 public:
  // Findings below `shown` are left out of the text report.
  Reports(const ReportRequest& request, findings::Severity shown, Output& out);
  ~Reports();
  Reports(const Reports&) = delete;
  Reports& operator=(const Reports&) = delete;

  // Findings and workloads of a run, into every report.
  run::RunSink sink();
  // A readiness report is asked for: the session must count it
  // (Request::readiness) and hand it to write().
  bool wants_readiness() const;
  // What `fix --diff` would print, for the reports that show it (markdown).
  bool shows_diffs() const;
  void add_diff(std::string_view diff);

  // Finishes the reports and writes them: atomically to their files, then
  // to the output. `readiness` is the run's when wants_readiness().
  void write(const report::Summary& summary, const report::Readiness* readiness = nullptr);

 private:
  struct Report {
    ReportTarget target;
    std::unique_ptr<Spool> spool;            // for the output
    std::unique_ptr<StreamedWrite> file;     // for a file
    std::unique_ptr<report::Writer> writer;  // none for the readiness report
    std::ostream* stream = nullptr;
  };
  std::vector<std::unique_ptr<Report>> reports_;
  Output& out_;
};

}  // namespace archfit::app
