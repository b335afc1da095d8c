// The shortest edit script between two sequences of lines, in linear space:
// Myers' O(ND) algorithm with its divide-and-conquer refinement (find the
// middle snake of an optimal path, recurse on both sides), so that memory
// stays proportional to the input however many lines differ.
#pragma once

#include <cstddef>
#include <functional>
#include <string_view>
#include <vector>

namespace archfit::diff {

enum class Op { Keep, Delete, Insert };

// Calls `emit` once per line of the script, in order: Keep and Delete name a
// line of `a`, Insert a line of `b` (by index). Kept lines come in the order
// of both sequences.
void line_script(const std::vector<std::string_view>& a, const std::vector<std::string_view>& b,
                 const std::function<void(Op op, std::size_t index)>& emit);

// The lines of `text`, each with its line ending; a last line without one is
// a line too.
std::vector<std::string_view> lines_of(std::string_view text);

}  // namespace archfit::diff
