// Go's number and time syntax, as go-yaml v2 relies on it: strconv's
// ParseInt, ParseUint and ParseFloat, math/big's SetString, and time.Parse
// for v2's timestamp layouts. Private to the yaml module; scalar.cpp builds
// v2's resolve() from these, so their corner cases are Go's, not C++'s.
#pragma once

#include <cstdint>
#include <string_view>

namespace archfit::yaml::go {

enum class Parse : std::uint8_t { Ok, Syntax, Range };

struct UintResult {
  Parse status = Parse::Syntax;
  std::uint64_t value = 0;
};

struct IntResult {
  Parse status = Parse::Syntax;
  std::int64_t value = 0;
};

// strconv.ParseUint(s, base, 64) for base 0 (prefix decides: 0b, 0o, 0x, or
// a bare leading 0 for octal) or an explicit base. Like Go it reports Range
// as soon as the value overflows, before looking at the rest of the digits.
// Underscores are not handled: v2 removes them before calling.
UintResult parse_uint(std::string_view s, int base);

// strconv.ParseInt(s, base, 64): an optional sign, then ParseUint.
IntResult parse_int(std::string_view s, int base);

// What math/big's Int.SetString(s, 0) accepts without a sign: the same
// prefixes as ParseUint, any number of digits.
bool big_unsigned_syntax(std::string_view s);

// strconv.ParseFloat(s, 64) for a decimal float already known to be well
// formed and free of underscores. Go fails only on overflow (±Inf with
// ErrRange); a value too small to represent becomes zero without an error.
bool parse_decimal(std::string_view s, double& out);

// strconv.ParseFloat(s, 64) for text starting with '.', checked here: Go's
// syntax allows an underscore only between two digits.
bool parse_float_leading_dot(std::string_view s, double& out);

// Whether time.Parse accepts `s` in one of v2's layouts:
// "2006-1-2T15:4:5.999999999Z07:00", the same with 't',
// "2006-1-2 15:4:5.999999999" and "2006-1-2". Go checks ranges, so
// 2001-02-30 is not a timestamp.
bool is_timestamp(std::string_view s);

}  // namespace archfit::yaml::go
