// Rendering findings for people and programs. Renderers only format: which
// findings exist and what they mean is decided elsewhere.
#pragma once

#include <cstddef>
#include <memory>
#include <ostream>
#include <string_view>
#include <vector>

#include <archfit/placement/finding.hpp>

namespace archfit::report {

enum class Format { Text, Json };

// Parses "text" / "json"; throws Error(Usage) naming the valid formats.
Format parse_format(std::string_view name);

struct Counts {
  std::size_t errors = 0;
  std::size_t warnings = 0;
  std::size_t infos = 0;

  void add(placement::Severity s);
  // Findings of severity `at_least` or worse.
  std::size_t at_least(placement::Severity s) const;
};

struct Summary {
  std::size_t files = 0;
  std::size_t workloads = 0;
  std::size_t templates = 0;
  Counts counts;  // of every finding, shown or not
};

// Findings in the order reports list them: by file, document, line, column, rule.
void sort_findings(std::vector<placement::Finding>& findings);

// Writes a report one finding at a time, in the order given, so that a run
// need not hold its findings: then the summary.
class Writer {
 public:
  virtual ~Writer() = default;
  virtual void add(const placement::Finding& f) = 0;
  virtual void finish(const Summary& summary) = 0;
};

// text: one line per finding at or above `shown`,
//   file:line:col: severity rule-id: message
// then a summary line counting all of them.
// json: {"findings": [...], "summary": {...}}, every finding included.
std::unique_ptr<Writer> make_writer(Format format, std::ostream& out,
                                    placement::Severity shown = placement::Severity::Info);

}  // namespace archfit::report
