// A finding: one thing lint reports about one place in the input. Findings are
// data; report/ renders them (text, json, ...). The shape follows kyaml's
// Result: rule, severity, message, resource, field with current and proposed
// values, and the file position.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <archfit/yaml/path.hpp>

namespace archfit::findings {

enum class Severity { Info = 0, Warning = 1, Error = 2 };

std::string_view severity_name(Severity s);  // "info" | "warning" | "error"
// The reverse; throws Error(Usage) naming the severities.
Severity parse_severity(std::string_view name);

struct ResourceRef {
  std::string api_version;
  std::string kind;
  std::string name;
  std::string namespace_name;
};

struct Finding {
  std::string rule;  // an id of the rule table (rules.hpp, docs/rules.md)
  Severity severity = Severity::Error;
  std::string message;           // one sentence saying what is wrong and what to do
  std::string file;              // as the user named it; "<stdin>" for standard input
  std::uint32_t line = 0;        // 1-based; 0 when unknown
  std::uint32_t column = 0;      // 1-based
  std::uint32_t end_line = 0;    // where the node ends (its last character); 0 when unknown
  std::uint32_t end_column = 0;  // 1-based, one past the last character
  std::uint32_t document = 0;    // 0-based index of the document in its file
  ResourceRef resource;
  yaml::Path field_path;  // spec.template.spec.affinity; each report spells it its way
  std::string current;    // current value as compact JSON; "" when absent
  std::string proposed;   // what fix writes, as compact JSON; "" when nothing
  bool fixable = false;   // archfit fix resolves it
  // The template the document was rendered from (helm's `# Source:` comment
  // or postrender-filename annotation), as helm wrote it; "" when unknown.
  std::string source;
};

// Where a finding points: the file as the user named it, the document's index
// in it, and the 1-based line and column (0 when unknown).
struct Place {
  std::string file;
  std::uint32_t document = 0;
  std::uint32_t line = 0;
  std::uint32_t column = 0;
};

// The one way a finding is made: the rule, which must be in the rule table
// (rules.hpp; an id it lacks is an internal error), with its usual severity;
// the message; the place; the resource. Callers set what else they know.
Finding make_finding(std::string_view rule, std::string message, Place at,
                     ResourceRef resource = {});

// A finding fix would have fixed in a template it leaves as it is
// (uneditable-yaml): no longer fixable, and its message says to make the
// change by hand ("archfit fix adds the tolerations" -> "archfit cannot edit
// this template, so by hand: add the tolerations").
void leave_to_a_person(Finding& f);

}  // namespace archfit::findings
