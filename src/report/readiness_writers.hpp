// The readiness report's writers, one per format (readiness_*.cpp), and what
// they share.
#pragma once

#include <ostream>
#include <string>

#include <archfit/report/readiness.hpp>

#include "report/sinks.hpp"

namespace archfit::report::detail {

void readiness_text(const Readiness& r, std::ostream& out);
void readiness_json(const Readiness& r, std::ostream& out);
void readiness_markdown(const Readiness& r, std::ostream& out);
void readiness_html(const Readiness& r, std::ostream& out);

// "kind namespace/name" ("kind name" without a namespace).
template <class Text>
void append_resource(Text& out, const findings::ResourceRef& r) {
  out << Untrusted(r.kind) << Words(" ");
  if (!r.namespace_name.empty()) out << Untrusted(r.namespace_name) << Words("/");
  out << Untrusted(r.name);
}

// Percent of `part` in `whole`, rounded down; 100 only when all.
inline unsigned percent(std::uint64_t part, std::uint64_t whole) {
  if (whole == 0) return 100;
  return static_cast<unsigned>(part * 100 / whole);
}

}  // namespace archfit::report::detail
