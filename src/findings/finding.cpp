#include <archfit/base/error.hpp>
#include <archfit/findings/finding.hpp>
#include <archfit/findings/rules.hpp>

namespace archfit::findings {

std::string_view severity_name(Severity s) {
  switch (s) {
    case Severity::Info:
      return "info";
    case Severity::Warning:
      return "warning";
    case Severity::Error:
      return "error";
  }
  return "error";
}

Severity parse_severity(std::string_view name) {
  for (Severity s : {Severity::Error, Severity::Warning, Severity::Info}) {
    if (severity_name(s) == name) return s;
  }
  fail(ErrorKind::Usage,
       "\"" + std::string(name) + "\" is not a severity; use error, warning or info");
}

Finding make_finding(std::string_view rule_id, std::string message, Place at,
                     ResourceRef resource) {
  Finding f;
  f.rule = std::string(rule_id);
  f.severity = rule(rule_id).severity;
  f.message = std::move(message);
  f.file = std::move(at.file);
  f.document = at.document;
  f.line = at.line;
  f.column = at.column;
  f.resource = std::move(resource);
  return f;
}

void leave_to_a_person(Finding& f) {
  f.fixable = false;
  constexpr std::string_view kFix = "archfit fix ";
  constexpr std::string_view kBy = "archfit cannot edit this template, so by hand: ";
  std::string& m = f.message;
  for (std::size_t at = m.find(kFix); at != std::string::npos; at = m.find(kFix, at)) {
    std::size_t verb = at + kFix.size();
    std::size_t end = m.find(' ', verb);
    if (end == std::string::npos) end = m.size();
    std::string_view word = std::string_view(m).substr(verb, end - verb);
    if (word == "would" || !word.ends_with('s')) {
      // "archfit fix would change ...": what fix would do, which it does not.
      m.replace(at, kFix.size(), "archfit cannot edit this template; fix ");
      at += kBy.size();
      continue;
    }
    // "adds" -> "add", "replaces" -> "replace", "splits" -> "split".
    m.erase(end - 1, 1);
    m.replace(at, kFix.size(), kBy);
    at += kBy.size();
  }
}

}  // namespace archfit::findings
