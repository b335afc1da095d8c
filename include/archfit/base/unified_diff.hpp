// Unified diffs, as `diff -u` and git print them, for `archfit fix --diff`.
// Only the changed regions are compared (a text's splices say where they
// are), each in linear space, so a diff costs memory in proportion to the
// input however much of it changed.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include <archfit/base/splices.hpp>

namespace archfit {

// The diff of `original` against what `edits` make of it: "" when nothing
// changes. Lines keep their own endings; a last line without one gets
// "\ No newline at end of file" after it. The names are written as git
// writes paths in headers (git_quoted_path).
std::string unified_diff(std::string_view original, const Splices& edits,
                         const std::string& before_name, const std::string& after_name,
                         int context = 3);

// The same, handed to `put` a piece at a time as it is made (nothing when
// nothing changes): a diff of any size costs one piece of memory.
void write_unified_diff(std::string_view original, const Splices& edits,
                        const std::string& before_name, const std::string& after_name,
                        const std::function<void(std::string_view)>& put, int context = 3);

// The same for two whole texts (their common start and end are not compared).
std::string unified_diff(std::string_view before, std::string_view after,
                         const std::string& before_name, const std::string& after_name,
                         int context = 3);

// A path as git writes it in a diff header: as it is, or, when it holds a
// control character, a double quote, a backslash or a byte above 0x7F, in
// double quotes with C escapes (\n, \t, \", \\, \ooo), which `git apply`
// and `patch` read back exactly.
std::string git_quoted_path(std::string_view path);

}  // namespace archfit
