// Rendering findings for people and programs. Renderers only format: which
// findings exist and what they mean is decided elsewhere. Each format is its
// own file in src/report/; all take the same findings, one at a time, in
// report order (files by name, then documents, line, column, rule).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include <archfit/findings/finding.hpp>

namespace archfit::report {

enum class Format { Text, Json, Sarif, Github, Junit, Markdown };

// "text", "json", "sarif", "github", "junit", "markdown".
std::string_view format_name(Format f);
const std::vector<std::string>& format_names();
// Throws Error(Usage) naming the valid formats.
Format parse_format(std::string_view name);

struct Counts {
  std::size_t errors = 0;
  std::size_t warnings = 0;
  std::size_t infos = 0;

  void add(findings::Severity s);
  // Findings of severity `at_least` or worse.
  std::size_t at_least(findings::Severity s) const;
};

struct Summary {
  std::size_t files = 0;
  std::size_t workloads = 0;
  std::size_t templates = 0;
  Counts counts;  // of every finding, shown or not
};

// Findings in the order reports list them: by file, document, line, column, rule.
void sort_findings(std::vector<findings::Finding>& findings);

struct WriterOptions {
  findings::Severity shown = findings::Severity::Info;  // text: the least severe listed
  std::string category;                                 // sarif: runs[].automationDetails.id
  std::string tool_version;                             // sarif: tool.driver.version
  // Where helm charts are, relative to the repository: a finding's source
  // (chart/templates/x.yaml) is reported as <source_root>/<source>, and
  // sarif and github point at that file. "": sources as helm wrote them.
  std::string source_root;
  // github: notices the step showed before archfit's (GitHub shows 10 of a
  // kind per step; the action's own are of the same step).
  std::size_t notices_before = 0;
};

// The finding's source as reports give it (see WriterOptions::source_root),
// always inside the source root; "" when it has none, or when its `# Source:`
// is no template's path as helm writes one (absolute, or with `..`).
std::string source_path(const findings::Finding& f, const WriterOptions& options);

// The text report's line for a finding, without its line break, every value
// from input in it encoded for a terminal: `file:line:col (source):
// severity rule: message`.
std::string text_line(const findings::Finding& f, const WriterOptions& options = {});

// A workload the run read, whether or not it has findings (junit makes a
// test case of each).
struct WorkloadSeen {
  std::string file;
  std::uint32_t document = 0;
  std::uint32_t line = 0;
  findings::ResourceRef resource;
};

// Writes a report as the run goes, so that a run need not hold its findings.
class Writer {
 public:
  virtual ~Writer() = default;
  virtual void add(const findings::Finding& f) = 0;
  // Before the findings of its document.
  virtual void add_workload(const WorkloadSeen&) {}
  // What `fix --diff` would print (markdown shows it); before finish().
  virtual void add_diff(std::string_view) {}
  virtual void finish(const Summary& summary) = 0;
};

// text: one line per finding at or above `shown`, then a summary line.
// json: {"findings": [...], "summary": {...}}, every finding.
// sarif: SARIF 2.1.0, one run, the rule table as tool.driver.rules.
// github: workflow commands (::error file=...::), at most 10 per severity,
//   then a notice with the totals.
// junit: a test suite per file, a test case per workload, a failure per
//   error or warning finding.
// markdown: counts by rule, a table of findings, the diff, under 1 MiB.
std::unique_ptr<Writer> make_writer(Format format, std::ostream& out,
                                    const WriterOptions& options = {});

// A stable identity of a finding that survives line moves and rendering:
// a hex hash of its rule, resource kind, namespace, name and field path.
std::string fingerprint(const findings::Finding& f);

}  // namespace archfit::report
