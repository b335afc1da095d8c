// JSON helpers for tests that compare command output with expected files.
#pragma once

#include <string>
#include <string_view>

namespace archfit::testing {

// Pretty-printed with 2-space indentation and a final newline; throws on
// invalid JSON.
std::string pretty_json(std::string_view json);

// Equal as JSON values (object key order does not matter).
bool same_json(std::string_view a, std::string_view b);

}  // namespace archfit::testing
