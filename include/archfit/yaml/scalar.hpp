// How a YAML scalar reads, and how to write one back.
//
// Kubernetes reads manifests with go-yaml v2 semantics (YAML 1.1 core types):
// `yes`, `no`, `on`, `off`, `y`, `n` are booleans, `0x1F`, `0o17`, `017`, `0b101`
// and `1_000` are integers, `1e3` and `.inf` are floats, `~` and `null` are null.
// Timestamps stay strings. A quoted or block scalar is always a string; an
// explicit tag (`!!str`, `!!int`, ...) wins over the plain-scalar rules.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace archfit::yaml {

enum class ScalarType : std::uint8_t { Null, Bool, Int, Float, String, Merge };

struct Resolved {
  ScalarType type = ScalarType::String;
  bool boolean = false;
  std::int64_t integer = 0;  // also used for values that only fit uint64 (see is_unsigned)
  bool is_unsigned = false;
  double real = 0.0;
};

// How an untagged plain scalar with this text resolves.
Resolved resolve_plain(std::string_view text);

// How a scalar resolves given its tag ("" when none) and whether it was plain.
// Non-specific tag "!" and any quoted style give String. Unknown local tags
// (e.g. "!foo") are treated as untagged for plain scalars.
Resolved resolve_scalar(std::string_view text, std::string_view tag, bool plain);

// The text to write for a string value so that, read back by a YAML 1.1 or
// 1.2 parser in any block or flow context, it is exactly `value` as a string:
// plain when that is safe, double-quoted (with escapes) otherwise.
std::string emit_string(std::string_view value);

// Always double-quoted, escaping what JSON and YAML require.
std::string double_quote(std::string_view value);

// True if `value` can be written as a plain scalar in block and flow context
// and still read back as the same string.
bool plain_safe(std::string_view value);

}  // namespace archfit::yaml
