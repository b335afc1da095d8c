#include "placement/reporter.hpp"

#include <algorithm>

namespace archfit::placement::detail {

namespace {

// Where a node's text ends, trailing blanks and line breaks aside: the line
// of its last character and the column after it (in characters). The line
// breaks are counted, and the characters of the last line alone: a finding
// on a pod template's spec spans the whole spec.
void end_of(yaml::NodeRef at, findings::Finding& f) {
  std::string_view text = at.text();
  std::size_t last = text.find_last_not_of(" \t\r\n");
  if (last == std::string_view::npos || f.line == 0) return;
  text = text.substr(0, last + 1);
  std::size_t last_break = text.rfind('\n');
  std::uint32_t line = f.line;
  std::uint32_t column = f.column;
  if (last_break != std::string_view::npos) {
    line += static_cast<std::uint32_t>(std::count(text.begin(), text.end(), '\n'));
    column = 1;
    text.remove_prefix(last_break + 1);
  }
  for (char c : text) {
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++column;
  }
  f.end_line = line;
  f.end_column = column;
}

}  // namespace

findings::Finding& Reporter::add(const char* rule, findings::Severity severity, std::string message,
                                 yaml::NodeRef at, const yaml::Path& field) {
  if (!at) at = where_.pod_template->spec;
  const manifest::Workload& w = *where_.workload;
  findings::Finding& f = out_.emplace_back(findings::make_finding(
      rule, std::move(message), {where_.file, where_.document, at.line(), at.column()},
      {w.api_version, w.kind, w.name, w.namespace_name}));
  f.severity = severity;
  end_of(at, f);
  f.field_path = path(field);
  return f;
}

yaml::Path Reporter::path(const yaml::Path& field) const {
  return where_.workload->path + where_.pod_template->path + field;
}

}  // namespace archfit::placement::detail
