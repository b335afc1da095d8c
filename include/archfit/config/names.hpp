// The names a configuration writes into pod templates are checked when it is
// read (nodepools/model/names.hpp has the rules), so that a typo is reported at its
// line rather than by the API server after archfit has rewritten the
// manifests.
#pragma once

#include <string_view>

#include <archfit/config/field.hpp>
#include <archfit/nodepools/model/names.hpp>

namespace archfit::config {

using nodepools::is_valid;
using nodepools::Syntax;

// Fails at `at` with "invalid <noun> "<text>": <rule>" unless `text` has `syntax`.
void require(Syntax syntax, std::string_view text, std::string_view noun, const Field& at);

}  // namespace archfit::config
