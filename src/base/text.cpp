#include <cctype>
#include <cstdio>

#include <archfit/base/text.hpp>

namespace archfit {

namespace {

void hex_byte(std::string& out, unsigned char c) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "\\x%02x", c);
  out += buf;
}

// The length of the UTF-8 sequence at text[i] when it is a whole, valid one
// that is not a C1 control (U+0080..U+009F, which terminals act on); else 0.
std::size_t printable_sequence(std::string_view text, std::size_t i) {
  auto c = static_cast<unsigned char>(text[i]);
  std::size_t n = 0;
  if (c >= 0xC2 && c <= 0xDF) n = 2;
  if (c >= 0xE0 && c <= 0xEF) n = 3;
  if (c >= 0xF0 && c <= 0xF4) n = 4;
  if (n == 0 || i + n > text.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) return 0;
  }
  auto c1 = static_cast<unsigned char>(text[i + 1]);
  if (n == 2 && c == 0xC2 && c1 < 0xA0) return 0;   // C1 controls
  if (n == 3 && c == 0xE0 && c1 < 0xA0) return 0;   // overlong
  if (n == 3 && c == 0xED && c1 >= 0xA0) return 0;  // surrogates
  if (n == 4 && c == 0xF0 && c1 < 0x90) return 0;   // overlong
  if (n == 4 && c == 0xF4 && c1 >= 0x90) return 0;  // past U+10FFFF
  return n;
}

// Escapes control characters, bytes that are not UTF-8 and, in quotes, the
// quote and the backslash.
void escape_into(std::string& out, std::string_view text, bool in_quotes) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x80) {
      std::size_t n = printable_sequence(text, i);
      if (n == 0) {
        hex_byte(out, c);
      } else {
        out.append(text.substr(i, n));
        i += n - 1;
      }
      continue;
    }
    switch (c) {
      case '"':
        out += in_quotes ? "\\\"" : "\"";
        break;
      case '\\':
        out += in_quotes ? "\\\\" : "\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (c < 0x20 || c == 0x7f) {
          hex_byte(out, c);
        } else {
          out += static_cast<char>(c);
        }
    }
  }
}

}  // namespace

std::string quoted(std::string_view text, std::size_t max_len) {
  bool cut = text.size() > max_len;
  if (cut) text = text.substr(0, max_len);
  std::string out = "\"";
  escape_into(out, text, true);
  out += cut ? "...\"" : "\"";
  return out;
}

std::string printable(std::string_view text, std::size_t max_len) {
  bool cut = text.size() > max_len;
  if (cut) text = text.substr(0, max_len);
  std::string out;
  escape_into(out, text, false);
  if (cut) out += "...";
  return out;
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
    text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
    text.remove_suffix(1);
  return text;
}

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  for (;;) {
    std::size_t pos = text.find(separator, start);
    if (pos == std::string_view::npos) {
      parts.push_back(text.substr(start));
      return parts;
    }
    parts.push_back(text.substr(start, pos - start));
    start = pos + 1;
  }
}

namespace {

// ASCII only, whatever the locale: the names compared and lowered here
// (platforms, schemes, header names) are ASCII by definition, and a byte
// that is not an ASCII capital stays as it is.
char ascii_lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

}  // namespace

bool starts_with_ci(std::string_view text, std::string_view prefix) {
  if (text.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    if (ascii_lower(text[i]) != ascii_lower(prefix[i])) return false;
  }
  return true;
}

std::string to_lower(std::string_view text) {
  std::string out(text);
  for (char& c : out)
    c = ascii_lower(c);
  return out;
}

}  // namespace archfit
