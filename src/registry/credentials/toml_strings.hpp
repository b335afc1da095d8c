// The small part of TOML that credential files use: comments, blank lines
// and `key = "basic string"` or `key = 'literal string'` lines. Anything else
// (tables, numbers, multi-line strings, dotted or quoted keys) is an error
// that points at it, so that a file is never half understood.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace archfit::registry {

struct TomlString {
  std::string key;
  std::string value;
  std::uint32_t line = 0;  // of the key, 1-based
  std::uint32_t column = 0;
};

// Throws Error(Config) "<file>:<line>:<col>: <what is wrong>". Messages never
// quote a value: these files hold secrets.
std::vector<TomlString> parse_toml_strings(std::string_view text, const std::string& file);

}  // namespace archfit::registry
