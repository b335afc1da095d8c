// github: GitHub Actions workflow commands, which the runner turns into
// annotations on the files. GitHub shows at most 10 annotations of each kind
// per step, so archfit writes the first 10 errors and 10 warnings (findings
// come most important file first: in file order) and 9 notices, then one
// notice with the totals and what was left out.
#include <array>
#include <string>
#include <vector>

#include "report/writers.hpp"

namespace archfit::report::detail {

namespace {

using findings::Finding;
using findings::Severity;

constexpr std::size_t kShown[] = {9, 10, 10};  // info (notice), warning, error

// Message text: %, CR and LF escaped. Property values: also ':' and ','.
std::string escape(std::string_view text, bool property) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '%':
        out += "%25";
        break;
      case '\r':
        out += "%0D";
        break;
      case '\n':
        out += "%0A";
        break;
      case ':':
        out += property ? "%3A" : ":";
        break;
      case ',':
        out += property ? "%2C" : ",";
        break;
      default:
        out += c;
    }
  }
  return out;
}

const char* command(findings::Severity s) {
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
    if (kept_[s].size() >= kShown[s]) return;
    std::string line = "::";
    line += command(f.severity);
    // With a source root the annotation goes on the chart's template, whose
    // lines are not the rendered stream's.
    std::string source = options_.source_root.empty() ? "" : source_path(f, options_);
    line += " file=" + escape(source.empty() ? f.file : source, true);
    if (source.empty() && f.line > 0) {
      line += ",line=" + std::to_string(f.line) + ",col=" + std::to_string(f.column);
      if (f.end_line >= f.line && f.end_line > 0) {
        line += ",endLine=" + std::to_string(f.end_line);
        if (f.end_line == f.line) line += ",endColumn=" + std::to_string(f.end_column);
      }
    }
    line += ",title=" + escape("archfit " + f.rule, true);
    line += "::" + escape(f.message, false);
    kept_[s].push_back(std::move(line));
  }

  void finish(const Summary& summary) override {
    for (std::size_t s : {2, 1, 0}) {
      for (const std::string& line : kept_[s])
        out_ << line << '\n';
    }
    const Counts& c = summary.counts;
    std::string totals = plural(c.errors, "error") + ", " + plural(c.warnings, "warning") + ", " +
                         plural(c.infos, "info") + " in " + plural(summary.files, "file") + " (" +
                         plural(summary.workloads, "workload") + ")";
    std::size_t counts[] = {c.infos, c.warnings, c.errors};
    std::string left;
    for (std::size_t s : {2, 1, 0}) {
      if (counts[s] > kept_[s].size()) {
        left += (left.empty() ? "" : ", ") + std::to_string(counts[s] - kept_[s].size()) + " " +
                std::string(findings::severity_name(static_cast<findings::Severity>(s))) +
                (counts[s] - kept_[s].size() == 1 ? "" : "s");
      }
    }
    if (!left.empty()) totals += "; not shown here: " + left + " (see the full report)";
    out_ << "::notice title=archfit::" << escape(totals, false) << '\n';
  }

 private:
  std::ostream& out_;
  WriterOptions options_;
  std::array<std::vector<std::string>, 3> kept_;
};

}  // namespace

std::unique_ptr<Writer> github_writer(std::ostream& out, const WriterOptions& options) {
  return std::make_unique<GithubWriter>(out, options);
}

}  // namespace archfit::report::detail
