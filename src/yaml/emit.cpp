// Writing a string so that every reader gets it back. The readers disagree
// (YAML 1.1 vs 1.2 types, libyaml vs PyYAML plain-scalar rules), so a plain
// scalar must be a string to all of them: anything one of them could read as
// a number, bool, null, timestamp, merge or value key is quoted, and so is
// anything whose characters one of them would scan differently. Double
// quoting uses only escapes that JSON shares, so the output is also JSON.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>

#include <archfit/base/error.hpp>
#include <archfit/base/text.hpp>
#include <archfit/yaml/scalar.hpp>

namespace archfit::yaml {
namespace {

struct CodePoint {
  char32_t value = 0;
  std::size_t length = 0;  // 0: not valid UTF-8 at this position
};

// One UTF-8 sequence at s[i]. Rejects what RFC 3629 rejects: stray
// continuation bytes, truncation, overlong forms, surrogates, > U+10FFFF.
CodePoint decode(std::string_view s, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char b0 = byte(i);
  if (b0 < 0x80) return {b0, 1};
  std::size_t length = 0;
  char32_t value = 0;
  char32_t min = 0;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    length = 2, value = b0 & 0x1F, min = 0x80;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    length = 3, value = b0 & 0x0F, min = 0x800;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    length = 4, value = b0 & 0x07, min = 0x10000;
  } else {
    return {};
  }
  if (i + length > s.size()) return {};
  for (std::size_t k = 1; k < length; ++k) {
    const unsigned char b = byte(i + k);
    if ((b & 0xC0) != 0x80) return {};
    value = (value << 6) | (b & 0x3F);
  }
  if (value < min || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF)) return {};
  return {value, length};
}

// Characters a double-quoted scalar must escape: those outside YAML's
// printable set, and those YAML 1.1 reads as line breaks (NEL, LS, PS) or
// treats specially (BOM). Every astral character is printable in YAML, so
// none needs a surrogate pair or \U escape.
bool must_escape(char32_t c) {
  return c < 0x20 || c == 0x7F || (c >= 0x80 && c <= 0x9F) || c == 0x2028 || c == 0x2029 ||
         c == 0xFEFF || c == 0xFFFE || c == 0xFFFF;
}

[[noreturn]] void invalid_utf8(std::string_view value, std::size_t at) {
  char buf[64];
  std::snprintf(buf, sizeof buf, " is not valid UTF-8 (byte 0x%02X at offset %zu)",
                static_cast<unsigned char>(value[at]), at);
  fail(ErrorKind::Input, quoted(value, 80) + buf + "; YAML text must be UTF-8");
}

char lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c + ('a' - 'A')) : c;
}

bool equals_ci(std::string_view text, std::string_view word) {
  if (text.size() != word.size()) return false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (lower(text[i]) != word[i]) return false;
  }
  return true;
}

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_hex(char c) {
  return is_digit(c) || (lower(c) >= 'a' && lower(c) <= 'f');
}

// Bool, null, merge and value words of YAML 1.1 and 1.2, in any letter case:
// no reader resolves `nULL`, but quoting it costs nothing.
bool special_word(std::string_view s) {
  static constexpr std::string_view kWords[] = {"y",    "n",     "yes",  "no", "on", "off",
                                                "true", "false", "null", "~",  "<<", "="};
  for (std::string_view w : kWords) {
    if (equals_ci(s, w)) return true;
  }
  return false;
}

// Anything a YAML 1.1 or 1.2 reader, or Go's strconv behind go-yaml, could
// take for a number: radix forms (0x 0o 0b, with v2's `0b-1` quirk), decimal
// ints and floats with `_` anywhere, exponents, YAML 1.1 base-60 (`1:20`),
// and inf/nan words with or without the dot. Version strings like 1.2.3 and
// quantities like 100m are not numbers to anyone and stay plain.
bool number_like(std::string_view s) {
  std::string t;
  const bool had_underscore = s.find('_') != std::string_view::npos;
  if (had_underscore) {
    for (char c : s) {
      if (c != '_') t += c;
    }
  }
  std::string_view r = had_underscore ? std::string_view(t) : s;
  if (!r.empty() && (r[0] == '+' || r[0] == '-')) r.remove_prefix(1);

  if (r.size() >= 2 && r[0] == '0' &&
      std::string_view("xXoObB").find(r[1]) != std::string_view::npos) {
    for (char c : r.substr(2)) {
      if (!is_hex(c) && c != '+' && c != '-') return false;
    }
    return true;
  }
  std::string_view word = r;
  if (!word.empty() && word[0] == '.') word.remove_prefix(1);
  if (equals_ci(word, "inf") || equals_ci(word, "infinity") || equals_ci(word, "nan")) return true;

  std::size_t i = 0;
  bool digits = had_underscore;
  int dots = 0;
  bool colon = false;
  for (; i < r.size(); ++i) {
    const char c = r[i];
    if (is_digit(c)) {
      digits = true;
    } else if (c == '.') {
      if (++dots > 1) return false;
    } else if (c == ':') {
      if (dots > 0) return false;
      colon = true;
    } else {
      break;
    }
  }
  if (!digits) return false;
  if (i == r.size()) return true;
  if (colon || (r[i] != 'e' && r[i] != 'E')) return false;
  ++i;
  if (i < r.size() && (r[i] == '+' || r[i] == '-')) ++i;
  if (i == r.size()) return false;
  for (; i < r.size(); ++i) {
    if (!is_digit(r[i])) return false;
  }
  return true;
}

// YAML 1.1 timestamps (and go-yaml's) start YYYY-M-D; quote anything that does.
bool timestamp_like(std::string_view s) {
  if (s.size() < 8 || s[4] != '-') return false;
  for (std::size_t i = 0; i < 4; ++i) {
    if (!is_digit(s[i])) return false;
  }
  std::size_t i = 5;
  if (!is_digit(s[i])) return false;
  ++i;
  if (is_digit(s[i])) ++i;
  return i + 1 < s.size() && s[i] == '-' && is_digit(s[i + 1]);
}

bool flow_indicator(char32_t c) {
  return c == ',' || c == '[' || c == ']' || c == '{' || c == '}' || c == ':' || c == '?';
}

// Most values written are words like `app`, `kubernetes.io/arch` or `amd64`:
// ASCII letters, digits and `-._/`, starting with a letter. No indicator,
// document marker, comment, flow character or timestamp can be among them.
bool simple_word(std::string_view s) {
  auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  if (!letter(s[0])) return false;
  return std::all_of(s.begin(), s.end(), [&letter](char c) {
    return letter(c) || is_digit(c) || c == '-' || c == '.' || c == '_' || c == '/';
  });
}

}  // namespace

bool plain_safe(std::string_view value, Context context) {
  if (value.empty()) return false;
  if (context == Context::Key && value.size() > kMaxImplicitKeyBytes) return false;
  // Of the simple words, only the special ones (`yes`, `Null`...) and inf/nan
  // read as anything but a string.
  if (simple_word(value)) return !special_word(value) && !number_like(value);

  // The first character: indicators start other tokens. A '-' followed by a
  // non-space starts a plain scalar in every reader (`-Xmx512m`); '?' and ':'
  // would too in block context, but not in flow, so they are simply quoted.
  const char first = value[0];
  if (std::string_view("?:,[]{}#&*!|>'\"%@` ").find(first) != std::string_view::npos) return false;
  if (first == '-' && (value.size() == 1 || value[1] == ' ')) return false;
  // Document markers: harmless inside a line, but a key at column 0 must not
  // begin a new document.
  if (value.starts_with("---") || value.starts_with("...")) return false;
  if (value.back() == ' ' || value.back() == ':') return false;

  for (std::size_t i = 0; i < value.size();) {
    const CodePoint cp = decode(value, i);
    if (cp.length == 0 || must_escape(cp.value)) return false;  // tab and line breaks included
    if (cp.value == ':' && i + 1 < value.size() && value[i + 1] == ' ') return false;
    if (cp.value == '#' && value[i - 1] == ' ') return false;  // i > 0: '#' cannot come first
    if (context == Context::Flow && flow_indicator(cp.value)) return false;
    i += cp.length;
  }

  if (special_word(value) || number_like(value) || timestamp_like(value)) return false;
  return resolve_plain(value).type == ScalarType::String;  // go-yaml v2 exactly, to be sure
}

std::string double_quote(std::string_view value) {
  std::string out;
  out.reserve(value.size() + 2);
  out += '"';
  for (std::size_t i = 0; i < value.size();) {
    const CodePoint cp = decode(value, i);
    if (cp.length == 0) invalid_utf8(value, i);
    switch (cp.value) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      default:
        if (must_escape(cp.value)) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04X", static_cast<unsigned>(cp.value));
          out += buf;
        } else {
          out.append(value.substr(i, cp.length));
        }
    }
    i += cp.length;
  }
  out += '"';
  return out;
}

std::string emit_string(std::string_view value, Context context) {
  if (plain_safe(value, context)) return std::string(value);
  std::string text = double_quote(value);
  if (context == Context::Key && text.size() > kMaxImplicitKeyBytes) {
    fail(ErrorKind::Input,
         "a mapping key of " + std::to_string(text.size()) +
             " bytes as YAML text cannot be written as an implicit key (at most " +
             std::to_string(kMaxImplicitKeyBytes) + "): " + quoted(value, 60) +
             "; shorten the key");
  }
  return text;
}

}  // namespace archfit::yaml
