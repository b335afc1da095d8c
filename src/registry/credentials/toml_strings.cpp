#include "registry/credentials/toml_strings.hpp"

#include <archfit/base/error.hpp>
#include <archfit/base/text.hpp>

namespace archfit::registry {

namespace {

bool is_bare_key_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-';
}

// TOML allows tab but no other control character inside strings.
bool is_control(unsigned char c) {
  return (c < 0x20 && c != '\t') || c == 0x7f;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

class Parser {
 public:
  Parser(std::string_view text, const std::string& file) : text_(text), file_(file) {
    if (text_.starts_with("\xEF\xBB\xBF")) pos_ = 3;  // a byte order mark
    line_start_ = pos_;
  }

  std::vector<TomlString> parse() {
    std::vector<TomlString> out;
    while (!at_end()) {
      skip_blanks();
      if (!at_line_end() && peek() != '#') out.push_back(key_value(out));
      end_line();
    }
    return out;
  }

 private:
  bool at_end() const { return pos_ >= text_.size(); }
  char peek() const { return text_[pos_]; }
  bool at_line_end() const { return at_end() || peek() == '\n' || text_.substr(pos_, 2) == "\r\n"; }

  std::uint32_t column_at(std::size_t pos) const {
    std::uint32_t column = 1;
    for (std::size_t i = line_start_; i < pos; ++i) {
      if ((static_cast<unsigned char>(text_[i]) & 0xC0) != 0x80) ++column;
    }
    return column;
  }
  [[noreturn]] void error_at(std::size_t pos, const std::string& message) const {
    fail(ErrorKind::Config, message, Location{file_, line_, column_at(pos)});
  }

  void skip_blanks() {
    while (!at_end() && (peek() == ' ' || peek() == '\t'))
      ++pos_;
  }

  // A comment, then the end of the line.
  void end_line() {
    skip_blanks();
    if (!at_end() && peek() == '#') {
      while (!at_end() && peek() != '\n')
        ++pos_;
      if (text_[pos_ - 1] == '\r') --pos_;
    }
    if (at_end()) return;
    if (peek() == '\r' && text_.substr(pos_, 2) == "\r\n") ++pos_;
    if (peek() != '\n') {
      error_at(pos_, "expected the end of the line; write one key = \"value\" per line");
    }
    ++pos_;
    ++line_;
    line_start_ = pos_;
  }

  TomlString key_value(const std::vector<TomlString>& seen) {
    TomlString entry;
    entry.line = line_;
    entry.column = column_at(pos_);
    std::size_t key_start = pos_;
    if (peek() == '[') {
      error_at(pos_, "tables are not supported here; write key = \"value\" lines");
    }
    while (!at_end() && is_bare_key_char(peek()))
      ++pos_;
    if (pos_ == key_start) {
      error_at(pos_, peek_is('"') || peek_is('\'')
                         ? "quoted keys are not supported; write the key bare: key = \"value\""
                         : "expected a key (letters, digits, '_' and '-')");
    }
    entry.key = std::string(text_.substr(key_start, pos_ - key_start));
    for (const TomlString& s : seen) {
      if (s.key == entry.key) {
        error_at(key_start, archfit::quoted(entry.key) + " is given twice (first on line " +
                                std::to_string(s.line) + "); keep one");
      }
    }
    skip_blanks();
    if (at_end() || peek() != '=') {
      error_at(pos_, peek_is('.') ? "dotted keys are not supported; write key = \"value\""
                                  : "expected '=' after the key " + archfit::quoted(entry.key));
    }
    ++pos_;
    skip_blanks();
    entry.value = value();
    return entry;
  }

  bool peek_is(char c) const { return !at_end() && peek() == c; }

  std::string value() {
    if (text_.substr(pos_, 3) == "\"\"\"" || text_.substr(pos_, 3) == "'''") {
      error_at(pos_, "multi-line strings are not supported; write the value on one line");
    }
    if (peek_is('"')) return basic_string();
    if (peek_is('\'')) return literal_string();
    error_at(pos_, "expected a string in double quotes (\"...\") or single quotes ('...')");
  }

  std::string literal_string() {
    std::size_t open = pos_++;
    std::string out;
    for (;;) {
      if (at_line_end()) error_at(open, "unterminated string; close it with '");
      unsigned char c = static_cast<unsigned char>(peek());
      if (c == '\'') break;
      if (is_control(c))
        error_at(pos_,
                 "control character in a string; write it as an escape in a \"basic string\"");
      out += static_cast<char>(c);
      ++pos_;
    }
    ++pos_;
    return out;
  }

  std::string basic_string() {
    std::size_t open = pos_++;
    std::string out;
    for (;;) {
      if (at_line_end()) error_at(open, "unterminated string; close it with \"");
      unsigned char c = static_cast<unsigned char>(peek());
      if (c == '"') break;
      if (is_control(c))
        error_at(pos_, "control character in a string; write it as an escape (\\n, \\t, \\uXXXX)");
      if (c != '\\') {
        out += static_cast<char>(c);
        ++pos_;
        continue;
      }
      escape(out);
    }
    ++pos_;
    return out;
  }

  void escape(std::string& out) {
    std::size_t at = pos_++;
    char e = at_end() ? '\0' : peek();
    ++pos_;
    switch (e) {
      case '"':
        out += '"';
        return;
      case '\\':
        out += '\\';
        return;
      case 'n':
        out += '\n';
        return;
      case 't':
        out += '\t';
        return;
      case 'r':
        out += '\r';
        return;
      case 'b':
        out += '\b';
        return;
      case 'f':
        out += '\f';
        return;
      case 'u':
        out += unicode(at, 4);
        return;
      case 'U':
        out += unicode(at, 8);
        return;
      default:
        error_at(
            at,
            "invalid escape sequence; use \\\" \\\\ \\n \\t \\r \\b \\f \\uXXXX or \\UXXXXXXXX");
    }
  }

  std::string unicode(std::size_t at, int digits) {
    std::uint32_t cp = 0;
    for (int i = 0; i < digits; ++i, ++pos_) {
      int h = at_end() ? -1 : hex_value(peek());
      if (h < 0) {
        error_at(at, std::string("\\") + (digits == 4 ? 'u' : 'U') + " takes exactly " +
                         std::to_string(digits) + " hexadecimal digits");
      }
      cp = cp * 16 + static_cast<std::uint32_t>(h);
    }
    if ((cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) {
      error_at(at, "escape is not a Unicode scalar value");
    }
    std::string out;
    append_utf8(out, cp);
    return out;
  }

  std::string_view text_;
  const std::string& file_;
  std::size_t pos_ = 0;
  std::size_t line_start_ = 0;
  std::uint32_t line_ = 1;
};

}  // namespace

std::vector<TomlString> parse_toml_strings(std::string_view text, const std::string& file) {
  return Parser(text, file).parse();
}

}  // namespace archfit::registry
