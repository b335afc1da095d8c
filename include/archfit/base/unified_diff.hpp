// Unified diffs of two texts, as `diff -u` and git print them, for
// `archfit fix --diff`.
#pragma once

#include <string>
#include <string_view>

namespace archfit {

// "" when the texts are equal. Lines keep their own endings; a last line
// without one gets "\ No newline at end of file" after it.
std::string unified_diff(std::string_view before, std::string_view after,
                         const std::string& before_name, const std::string& after_name,
                         int context = 3);

}  // namespace archfit
