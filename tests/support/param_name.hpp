// Names of parameterized test rows.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace archfit::testing {

// A GoogleTest parameter name from a row's input: its first 40 characters with
// everything but ASCII letters and digits turned into '_', then the row number
// (which keeps names unique when inputs differ only in punctuation).
inline std::string param_name(std::string_view text, std::size_t index) {
  std::string out;
  for (char c : text.substr(0, 40)) {
    bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    out += alnum ? c : '_';
  }
  return out + "_" + std::to_string(index);
}

}  // namespace archfit::testing
