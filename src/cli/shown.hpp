// What the command line prints of the input (file names, resource and image
// names, error messages that quote them), encoded for a terminal or a CI log
// (base/untrusted.hpp): no escape sequence or control character of the input
// reaches either.
#pragma once

#include <string>
#include <string_view>

#include <archfit/base/untrusted.hpp>

namespace archfit::cli {

inline std::string shown(std::string_view text) {
  return for_terminal(Untrusted(text));
}

}  // namespace archfit::cli
