// Scalar resolution as Kubernetes does it: sigs.k8s.io/yaml hands every
// document to go-yaml v2 and decodes into interface{}, so a plain scalar gets
// v2's YAML 1.1 types. The rules below follow v2's resolve() step by step,
// including the order of its attempts, because that order decides edge cases
// (`08` is a float: not an octal int, but it matches the float pattern).
// Numbers go through re-implementations of Go's strconv syntax, not regexes.

#include <cstdint>
#include <limits>
#include <span>
#include <string>

#include <archfit/base/error.hpp>
#include <archfit/base/text.hpp>
#include <archfit/yaml/scalar.hpp>

#include "yaml/go_syntax.hpp"

namespace archfit::yaml {
namespace {

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

Resolved make(ScalarType type) {
  Resolved r;
  r.type = type;
  return r;
}

Resolved make_int(std::int64_t value) {
  Resolved r = make(ScalarType::Int);
  r.integer = value;
  return r;
}

Resolved make_uint(std::uint64_t value) {
  Resolved r = make(ScalarType::Int);
  r.integer = static_cast<std::int64_t>(value);
  r.is_unsigned = value > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  return r;
}

Resolved make_float(double value) {
  Resolved r = make(ScalarType::Float);
  r.real = value;
  return r;
}

// v2's table of fixed words, by length. Only the spellings listed resolve:
// `tRUE` and `.Nan` are strings.
struct Word {
  std::string_view text;
  ScalarType type;
  bool boolean;
  double real;
};

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

constexpr Word kWords1[] = {{"y", ScalarType::Bool, true, 0},
                            {"Y", ScalarType::Bool, true, 0},
                            {"n", ScalarType::Bool, false, 0},
                            {"N", ScalarType::Bool, false, 0},
                            {"~", ScalarType::Null, false, 0}};
constexpr Word kWords2[] = {{"on", ScalarType::Bool, true, 0},  {"On", ScalarType::Bool, true, 0},
                            {"ON", ScalarType::Bool, true, 0},  {"no", ScalarType::Bool, false, 0},
                            {"No", ScalarType::Bool, false, 0}, {"NO", ScalarType::Bool, false, 0}};
constexpr Word kWords3[] = {
    {"yes", ScalarType::Bool, true, 0},  {"Yes", ScalarType::Bool, true, 0},
    {"YES", ScalarType::Bool, true, 0},  {"off", ScalarType::Bool, false, 0},
    {"Off", ScalarType::Bool, false, 0}, {"OFF", ScalarType::Bool, false, 0}};
constexpr Word kWords4[] = {
    {"true", ScalarType::Bool, true, 0},      {"True", ScalarType::Bool, true, 0},
    {"TRUE", ScalarType::Bool, true, 0},      {"null", ScalarType::Null, false, 0},
    {"Null", ScalarType::Null, false, 0},     {"NULL", ScalarType::Null, false, 0},
    {".nan", ScalarType::Float, false, kNaN}, {".NaN", ScalarType::Float, false, kNaN},
    {".NAN", ScalarType::Float, false, kNaN}, {".inf", ScalarType::Float, false, kInf},
    {".Inf", ScalarType::Float, false, kInf}, {".INF", ScalarType::Float, false, kInf}};
constexpr Word kWords5[] = {
    {"false", ScalarType::Bool, false, 0},      {"False", ScalarType::Bool, false, 0},
    {"FALSE", ScalarType::Bool, false, 0},      {"+.inf", ScalarType::Float, false, kInf},
    {"+.Inf", ScalarType::Float, false, kInf},  {"+.INF", ScalarType::Float, false, kInf},
    {"-.inf", ScalarType::Float, false, -kInf}, {"-.Inf", ScalarType::Float, false, -kInf},
    {"-.INF", ScalarType::Float, false, -kInf}};
constexpr std::span<const Word> kWordsByLength[] = {{},      kWords1, kWords2,
                                                    kWords3, kWords4, kWords5};

// The longest word of the tables above.
constexpr std::size_t kLongestWord = std::size(kWordsByLength) - 1;

bool lookup_word(std::string_view text, Resolved& out) {
  if (text.size() >= std::size(kWordsByLength)) return false;
  for (const Word& w : kWordsByLength[text.size()]) {
    if (w.text[0] != text[0] || w.text != text) continue;  // the first byte spares a memcmp
    out = make(w.type);
    out.boolean = w.boolean;
    out.real = w.real;
    return true;
  }
  return false;
}

// v2's yamlStyleFloat: ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$
bool v2_float_syntax(std::string_view s) {
  std::size_t i = 0;
  const std::size_t n = s.size();
  auto digits = [&] {
    std::size_t start = i;
    while (i < n && is_digit(s[i]))
      ++i;
    return i > start;
  };
  if (i < n && (s[i] == '+' || s[i] == '-')) ++i;
  if (i < n && s[i] == '.') {
    ++i;
    if (!digits()) return false;
  } else {
    if (!digits()) return false;
    if (i < n && s[i] == '.') {
      ++i;
      digits();
    }
  }
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < n && (s[i] == '+' || s[i] == '-')) ++i;
    if (!digits()) return false;
  }
  return i == n;
}

std::string without_underscores(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    if (c != '_') out += c;
  }
  return out;
}

// ---- v2's resolve() ----

// The numeric attempts of v2 for text starting with a digit or a sign, in
// v2's order: int, uint, float, the 0b fallbacks, then a big integer.
Resolved resolve_number(std::string_view text) {
  std::string stripped;
  std::string_view plain = text;
  if (text.find('_') != std::string_view::npos) {
    stripped = without_underscores(text);
    plain = stripped;
  }
  go::IntResult as_int = go::parse_int(plain, 0);
  if (as_int.status == go::Parse::Ok) return make_int(as_int.value);
  go::UintResult as_uint = go::parse_uint(plain, 0);
  if (as_uint.status == go::Parse::Ok) return make_uint(as_uint.value);
  double real = 0;
  if (v2_float_syntax(plain) && go::parse_decimal(plain, real)) return make_float(real);
  // v2 parses the digits after "0b" with an explicit base, which lets a sign
  // through: `0b-11` is -3.
  if (plain.starts_with("0b")) {
    go::IntResult b = go::parse_int(plain.substr(2), 2);
    if (b.status == go::Parse::Ok) return make_int(b.value);
    go::UintResult ub = go::parse_uint(plain.substr(2), 2);
    if (ub.status == go::Parse::Ok) return make_uint(ub.value);
  } else if (plain.starts_with("-0b")) {
    std::string negated(1, '-');
    negated.append(plain.substr(3));
    go::IntResult b = go::parse_int(negated, 2);
    if (b.status == go::Parse::Ok) return make_int(b.value);
  }
  // Too big for 64 bits: the sigs.k8s.io/yaml copy of v2 reads it as a
  // *big.Int (upstream v2.4.0 keeps the string). Decimals never get here
  // unless they overflow even a float64.
  if (as_uint.status == go::Parse::Range && go::big_unsigned_syntax(plain)) {
    Resolved r = make(ScalarType::Int);
    r.is_big = true;
    return r;
  }
  return make(ScalarType::String);
}

// v2's resolve(tag, text) for an empty or resolvable tag; `timestamps` is
// true when a timestamp may be recognised (no tag, or !!timestamp).
Resolved resolve_v2(std::string_view text, bool timestamps, bool& is_timestamp) {
  is_timestamp = false;
  if (text.empty()) return make(ScalarType::Null);
  Resolved word;
  const char c = text[0];
  if (plain_string_at_a_glance(text)) return make(ScalarType::String);
  // v2 looks words up only for text starting with one of these.
  if (std::string_view("yYnNtTfFoO~").find(c) != std::string_view::npos) {
    return lookup_word(text, word) ? word : make(ScalarType::String);
  }
  if (c == '.') {
    if (lookup_word(text, word)) return word;
    double real = 0;
    if (go::parse_float_leading_dot(text, real)) return make_float(real);
    return make(ScalarType::String);
  }
  if (c == '+' || c == '-') {
    if (lookup_word(text, word)) return word;  // the signed infinities
  } else if (!is_digit(c)) {
    return make(ScalarType::String);
  }
  if (timestamps && go::is_timestamp(text)) {
    is_timestamp = true;
    return make(ScalarType::String);
  }
  return resolve_number(text);
}

enum class TagKind : std::uint8_t {
  None,
  NonSpecific,
  Str,
  Int,
  Float,
  Bool,
  Null,
  Timestamp,
  Other
};

TagKind classify_tag(std::string_view tag) {
  if (tag.empty()) return TagKind::None;
  if (tag == "!") return TagKind::NonSpecific;
  std::string_view name;
  if (tag.starts_with("tag:yaml.org,2002:")) {
    name = tag.substr(18);
  } else if (tag.starts_with("!!")) {
    name = tag.substr(2);
  } else {
    return TagKind::Other;
  }
  if (name == "str") return TagKind::Str;
  if (name == "int") return TagKind::Int;
  if (name == "float") return TagKind::Float;
  if (name == "bool") return TagKind::Bool;
  if (name == "null") return TagKind::Null;
  if (name == "timestamp") return TagKind::Timestamp;
  return TagKind::Other;
}

std::string_view short_tag(TagKind kind) {
  switch (kind) {
    case TagKind::Int:
      return "!!int";
    case TagKind::Float:
      return "!!float";
    case TagKind::Bool:
      return "!!bool";
    case TagKind::Null:
      return "!!null";
    case TagKind::Timestamp:
      return "!!timestamp";
    default:
      return "!!str";
  }
}

std::string_view short_tag(const Resolved& r) {
  switch (r.type) {
    case ScalarType::Null:
      return "!!null";
    case ScalarType::Bool:
      return "!!bool";
    case ScalarType::Int:
      return "!!int";
    case ScalarType::Float:
      return "!!float";
    default:
      return "!!str";
  }
}

}  // namespace

bool plain_string_at_a_glance(std::string_view text) {
  // v2 looks words up only for text starting with one of yYnNtTfFoO~ (none
  // longer than kLongestWord), reads numbers from a digit, '.', '+' or '-',
  // and "<<" is the merge key.
  if (text.empty()) return false;
  const char c = text.front();
  const bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  return letter && (text.size() > kLongestWord ||
                    std::string_view("yYnNtTfFoO").find(c) == std::string_view::npos);
}

Resolved resolve_plain(std::string_view text) {
  if (text == "<<") return make(ScalarType::Merge);
  bool is_timestamp = false;
  return resolve_v2(text, true, is_timestamp);  // v2 hands timestamps to interface{} as strings
}

Resolved resolve_scalar(std::string_view text, std::string_view tag, bool plain) {
  const TagKind kind = classify_tag(tag);
  switch (kind) {
    case TagKind::None:
      return plain ? resolve_plain(text) : make(ScalarType::String);
    case TagKind::NonSpecific:
    case TagKind::Str:
    case TagKind::Other:
      return make(ScalarType::String);
    default:
      break;
  }
  bool is_timestamp = false;
  Resolved r = resolve_v2(text, kind == TagKind::Timestamp, is_timestamp);
  bool accepted = false;
  switch (kind) {
    case TagKind::Int:
      accepted = r.type == ScalarType::Int;
      break;
    case TagKind::Bool:
      accepted = r.type == ScalarType::Bool;
      break;
    case TagKind::Null:
      accepted = r.type == ScalarType::Null;
      break;
    case TagKind::Timestamp:
      accepted = is_timestamp;
      break;
    case TagKind::Float:
      // v2 turns an int into a float only when it fits int64.
      if (r.type == ScalarType::Int && !r.is_unsigned && !r.is_big) {
        return make_float(static_cast<double>(r.integer));
      }
      accepted = r.type == ScalarType::Float;
      break;
    default:
      break;
  }
  if (!accepted) {
    fail(ErrorKind::Input, "cannot read " + quoted(text) + " as " + std::string(short_tag(kind)) +
                               ": it reads as " + std::string(short_tag(r)) +
                               "; remove the tag or fix the value");
  }
  // A timestamp reaches interface{} as its text.
  return is_timestamp ? make(ScalarType::String) : r;
}

}  // namespace archfit::yaml
