// github: GitHub Actions workflow commands, which the runner turns into
// annotations on the files. GitHub shows at most 10 annotations of each kind
// per step, so archfit writes the first 10 errors and 10 warnings (findings
// come most important file first: in file order) and 9 notices, fewer by
// the notices the step showed before (WriterOptions::notices_before), then
// one notice with the totals and what was left out.
#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "report/sinks.hpp"
#include "report/writers.hpp"

namespace archfit::report::detail {

namespace {

using findings::Finding;
using findings::Severity;

constexpr std::size_t kShown[] = {9, 10, 10};  // info (notice), warning, error

Words command(findings::Severity s) {
  switch (s) {
    case findings::Severity::Error:
      return "error";
    case findings::Severity::Warning:
      return "warning";
    case findings::Severity::Info:
      return "notice";
  }
  return "notice";
}

class GithubWriter : public Writer {
 public:
  GithubWriter(std::ostream& out, const WriterOptions& options) : out_(out), options_(options) {}

  void add(const findings::Finding& f) override {
    auto s = static_cast<std::size_t>(f.severity);
    std::size_t most = kShown[s];
    if (f.severity == Severity::Info) most -= std::min(most, options_.notices_before);
    if (kept_[s].size() >= most) return;
    WorkflowCommand line(command(f.severity));
    // With a source root the annotation goes on the chart's template, whose
    // lines are not the rendered stream's.
    std::string source = options_.source_root.empty() ? "" : source_path(f, options_);
    line.property("file", Untrusted(source.empty() ? f.file : source));
    if (source.empty() && f.line > 0) {
      line.property("line", f.line).property("col", f.column);
      if (f.end_line >= f.line && f.end_line > 0) {
        line.property("endLine", f.end_line);
        if (f.end_line == f.line) line.property("endColumn", f.end_column);
      }
    }
    line.property("title", Words("archfit ")).and_then(Words::rule(f.rule));
    line.message(Untrusted(f.message));
    kept_[s].push_back(std::move(line));
  }

  void finish(const Summary& summary) override {
    for (std::size_t s : {2, 1, 0}) {
      for (const WorkflowCommand& line : kept_[s])
        out_.write(line);
    }
    const Counts& c = summary.counts;
    WorkflowCommand totals("notice");
    totals.property("title", Words("archfit"))
        .message(c.errors)
        .message(c.errors == 1 ? Words(" error, ") : Words(" errors, "))
        .message(c.warnings)
        .message(c.warnings == 1 ? Words(" warning, ") : Words(" warnings, "))
        .message(c.infos)
        .message(c.infos == 1 ? Words(" info in ") : Words(" infos in "))
        .message(summary.files)
        .message(summary.files == 1 ? Words(" file (") : Words(" files ("))
        .message(summary.workloads)
        .message(summary.workloads == 1 ? Words(" workload)") : Words(" workloads)"));
    std::size_t counts[] = {c.infos, c.warnings, c.errors};
    bool first = true;
    for (std::size_t s : {2, 1, 0}) {
      if (counts[s] <= kept_[s].size()) continue;
      const std::size_t left = counts[s] - kept_[s].size();
      totals.message(first ? Words("; not shown here: ") : Words(", ")).message(left);
      totals.message(Words(" ")).message(Words::severity(static_cast<findings::Severity>(s)));
      if (left != 1) totals.message(Words("s"));
      first = false;
    }
    if (!first) totals.message(Words(" (see the full report)"));
    out_.write(totals);
  }

 private:
  WorkflowOut out_;
  WriterOptions options_;
  std::array<std::vector<WorkflowCommand>, 3> kept_;
};

}  // namespace

std::unique_ptr<Writer> github_writer(std::ostream& out, const WriterOptions& options) {
  return std::make_unique<GithubWriter>(out, options);
}

}  // namespace archfit::report::detail
