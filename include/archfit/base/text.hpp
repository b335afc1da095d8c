// Small string helpers shared by every module: quoting input for messages,
// splitting and trimming.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace archfit {

// The input as a double-quoted, escaped string for error messages:
// quoted("a\tb") == "\"a\\tb\"". Long inputs are cut with "..." after max_len bytes.
// Escaped as for a terminal (base/untrusted.hpp), the quote and the
// backslash too.
std::string quoted(std::string_view text, std::size_t max_len = 200);

// Text from outside (a server's words, a header's value) made safe to print
// on a line of its own: for_terminal (control characters, C1 controls, the
// Unicode controls that reorder or hide text and bytes that are not UTF-8
// escaped: \r, \x1b, \u202e, \xff), and text longer than max_len bytes is
// cut with "...".
std::string printable(std::string_view text, std::size_t max_len = 300);

std::string_view trim(std::string_view text);
std::vector<std::string_view> split(std::string_view text, char separator);
// ASCII letters compared and lowered alone, whatever the locale.
bool starts_with_ci(std::string_view text, std::string_view prefix);
std::string to_lower(std::string_view text);
// `needle` occurs in `text` (a fast scan, for looking over whole inputs).
bool contains(std::string_view text, std::string_view needle);

}  // namespace archfit
