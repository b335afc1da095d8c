// Rendering findings for people and programs. Renderers only format: which
// findings exist and what they mean is decided elsewhere.
#pragma once

#include <archfit/placement/finding.hpp>

#include <cstddef>
#include <ostream>
#include <string_view>
#include <vector>

namespace archfit::report {

enum class Format { Text, Json };

// Parses "text" / "json"; throws Error(Usage) naming the valid formats.
Format parse_format(std::string_view name);

struct Summary {
  std::size_t files = 0;
  std::size_t workloads = 0;
  std::size_t templates = 0;
};

struct Counts {
  std::size_t errors = 0;
  std::size_t warnings = 0;
  std::size_t infos = 0;
};
Counts count(const std::vector<placement::Finding>& findings);

// Findings in the order reports list them: by file, document, line, column, rule.
void sort_findings(std::vector<placement::Finding>& findings);

// One line per finding at or above `shown`,
//   file:line:col: severity rule-id: message
// then a summary line counting all of them.
void write_text(std::ostream& out, const std::vector<placement::Finding>& findings,
                const Summary& summary, placement::Severity shown = placement::Severity::Info);

// {"findings": [...], "summary": {...}}, every finding included.
void write_json(std::ostream& out, const std::vector<placement::Finding>& findings,
                const Summary& summary);

}  // namespace archfit::report
