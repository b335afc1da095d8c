#include <archfit/base/error.hpp>
#include <archfit/placement/finding.hpp>

namespace archfit::placement {

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

}  // namespace archfit::placement
