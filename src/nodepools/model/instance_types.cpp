#include <algorithm>
#include <array>
#include <cctype>

#include <archfit/nodepools/model/instance_types.hpp>

namespace archfit::nodepools {

namespace {

// Family letters of AWS instance types (the letters before the generation
// digit), all of which Intel or AMD build except where the suffix after the
// generation starts with 'g' (Graviton): c6g, m7gd, im4gn, is4gen, x2gd.
constexpr std::array<std::string_view, 23> kFamilies = {
    "a",  "c", "d",   "dl", "f", "g", "gr",  "h", "hpc", "i", "im", "inf",
    "is", "m", "mac", "p",  "r", "t", "trn", "u", "vt",  "x", "z"};

bool is_alpha(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) != 0;
}
bool is_digit(char c) {
  return std::isdigit(static_cast<unsigned char>(c)) != 0;
}

}  // namespace

std::optional<std::string> aws_instance_arch(std::string_view type) {
  std::string_view family = type.substr(0, type.find('.'));
  if (family.size() == type.size()) return std::nullopt;  // no ".size"
  std::size_t letters = 0;
  while (letters < family.size() && is_alpha(family[letters]) && family[letters] != '-')
    ++letters;
  std::size_t digits = letters;
  while (digits < family.size() && is_digit(family[digits]))
    ++digits;
  if (letters == 0 || digits == letters) {
    if (family.starts_with("u-")) return "amd64";  // u-6tb1.metal and the other high-memory types
    return std::nullopt;
  }
  std::string_view name = family.substr(0, letters);
  if (std::find(kFamilies.begin(), kFamilies.end(), name) == kFamilies.end()) return std::nullopt;
  std::string_view suffix = family.substr(digits);
  if (family == "a1" || (name == "mac" && family.substr(letters, digits - letters) == "2"))
    return "arm64";
  if (suffix.starts_with('g')) return "arm64";
  return "amd64";
}

}  // namespace archfit::nodepools
