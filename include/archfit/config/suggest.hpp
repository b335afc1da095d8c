// "Did you mean": the closest valid word to a misspelt one, for messages
// about unknown keys, enum values and platform names.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace archfit::config {

// Optimal string alignment distance (Levenshtein plus adjacent
// transpositions, so "amd46" is one edit from "amd64"), ignoring ASCII case.
std::size_t edit_distance(std::string_view a, std::string_view b);

// The candidate closest to `input`, or "" when none is close enough to be a
// plausible typo: at most a third of the shorter word's length in edits (at
// least one edit; a difference in case alone always counts), or one word of
// three letters or more starting the other ("warning" -> "warn"). Ties go to
// the earlier candidate.
std::string closest(std::string_view input, const std::vector<std::string_view>& candidates);

// ' (did you mean "x"?)' or "" when nothing is close.
std::string did_you_mean(std::string_view input, const std::vector<std::string_view>& candidates);

// "a, b, c"
std::string join(const std::vector<std::string_view>& words, std::string_view separator = ", ");

}  // namespace archfit::config
