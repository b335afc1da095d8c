// The rule table: every rule a finding can name, with what reports need to
// explain it (SARIF's tool.driver.rules, help links, docs/rules.md, which a
// test keeps in step with this table).
#pragma once

#include <span>
#include <string>
#include <string_view>

#include <archfit/findings/finding.hpp>

namespace archfit::findings {

struct Rule {
  std::string_view id;           // stable, e.g. "missing-arch-affinity"
  Severity severity;             // the usual one; a finding may say otherwise
  bool fixable;                  // archfit fix resolves it in its usual form
  std::string_view summary;      // one line
  std::string_view description;  // what it means and why it matters

  // docs/rules.md#<id>, under the project's home page.
  std::string help_uri() const;
};

// The project's home page (ARCHFIT_HOMEPAGE at build time).
std::string_view homepage();

// Every rule, in the order of docs/rules.md.
std::span<const Rule> rules();

// The rule with this id. Throws Error(Internal) for an id the table lacks:
// every finding names a rule of the table.
const Rule& rule(std::string_view id);

}  // namespace archfit::findings
