#include "report/sinks.hpp"

#include <archfit/findings/rules.hpp>

namespace archfit::report::detail {

Words Words::rule(std::string_view id) {
  return Words(findings::rule(id).id);  // the table's own text
}

Words Words::severity(findings::Severity s) {
  return Words(findings::severity_name(s));
}

}  // namespace archfit::report::detail
