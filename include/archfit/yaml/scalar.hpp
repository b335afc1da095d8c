// How a YAML scalar reads, and how to write one back.
//
// Kubernetes reads manifests with go-yaml v2 semantics (YAML 1.1 core types):
// `yes`, `no`, `on`, `off`, `y`, `n` are booleans, `0x1F`, `0o17`, `017`, `0b101`
// and `1_000` are integers, `1e3`, `08` and `.inf` are floats, `~` and `null`
// are null. Timestamps stay strings. A quoted or block scalar is always a
// string; an explicit core tag (`!!str`, `!!int`, ...) wins over the style.
// Writing goes the other way: a string is emitted plain only where every
// YAML 1.1 and 1.2 reader would read it back as that same string.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace archfit::yaml {

enum class ScalarType : std::uint8_t { Null, Bool, Int, Float, String, Merge };

struct Resolved {
  ScalarType type = ScalarType::String;
  bool boolean = false;
  std::int64_t integer = 0;  // also used for values that only fit uint64 (see is_unsigned)
  bool is_unsigned = false;  // integer holds the bits of a value above INT64_MAX
  bool is_big = false;       // an Int beyond 64 bits (read as a big integer); integer is 0
  double real = 0.0;
};

// True when the untagged plain scalar `text` resolves as a string, seen at
// a glance: it starts with an ASCII letter, and either that letter starts no
// null or bool word or the text is longer than any of them (most keys and
// names). False says nothing: ask resolve_plain.
bool plain_string_at_a_glance(std::string_view text);

// How an untagged plain scalar with this text resolves. `<<` gives Merge: as
// a mapping key it merges; as a value go-yaml reads it as the string "<<".
Resolved resolve_plain(std::string_view text);

// How a scalar resolves given its tag ("" when none, long `tag:yaml.org,2002:`
// or short `!!` form) and whether it was plain. An untagged non-plain scalar
// and one tagged `!` are strings. `!!str|int|float|bool|null|timestamp` decide
// whatever the style; a value the tag does not accept (`!!int x`) is an Input
// error. Any other tag (`!foo`, `!!binary`) gives a string, as go-yaml v2
// keeps the text of scalars whose tag it does not resolve.
Resolved resolve_scalar(std::string_view text, std::string_view tag, bool plain);

// Where the emitted text will stand; flow collections and keys restrict more.
enum class Context : std::uint8_t {
  Block,  // a block mapping value or a block sequence item
  Flow,   // anything inside [...] or {...}: `, [ ] { } : ?` force quotes
  Key,    // an implicit key of a block mapping: at most kMaxImplicitKeyBytes
};

// YAML parsers give up on an implicit key (`key: value`) longer than this.
inline constexpr std::size_t kMaxImplicitKeyBytes = 1024;

// The text to write for a string value so that, read back by a YAML 1.1 or
// 1.2 parser (libyaml, go-yaml v2/v3, PyYAML) in `context`, it is exactly
// `value` as a string: plain when that is safe, double-quoted otherwise.
// Throws Error(Input) for invalid UTF-8, and for a Key whose text would be
// longer than kMaxImplicitKeyBytes.
std::string emit_string(std::string_view value, Context context = Context::Block);

// Always double-quoted. Escapes `"`, `\`, C0 and C1 controls, DEL, U+2028,
// U+2029, U+FEFF, U+FFFE and U+FFFF with escapes that are also valid JSON;
// everything else, non-ASCII included, is copied as UTF-8. Throws
// Error(Input) for invalid UTF-8.
std::string double_quote(std::string_view value);

// True if `value` can be written as a plain scalar in `context` and still read
// back as the same string. A value plain-safe in Flow is plain-safe in Block.
bool plain_safe(std::string_view value, Context context = Context::Block);

}  // namespace archfit::yaml
