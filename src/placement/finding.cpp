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

}  // namespace archfit::placement
