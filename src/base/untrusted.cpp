#include <cstdint>
#include <cstdio>

#include <archfit/base/untrusted.hpp>

namespace archfit {

namespace {

// The code point of the valid UTF-8 sequence at text[i] and its length; a
// length of 0 for a byte that starts none (overlong forms, surrogates and
// what lies past U+10FFFF are not UTF-8).
struct Decoded {
  char32_t code = 0;
  std::size_t length = 0;
};

Decoded decode(std::string_view text, std::size_t i) {
  auto b = [&text](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char c = b(i);
  if (c < 0x80) return {c, 1};
  std::size_t n = 0;
  char32_t code = 0;
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
    code = c & 0x1F;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    code = c & 0x0F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    code = c & 0x07;
  }
  if (n == 0 || i + n > text.size()) return {};
  for (std::size_t k = 1; k < n; ++k) {
    if ((b(i + k) & 0xC0) != 0x80) return {};
    code = (code << 6) | (b(i + k) & 0x3F);
  }
  if ((n == 3 && code < 0x800) || (n == 4 && code < 0x10000)) return {};  // overlong
  if (code >= 0xD800 && code <= 0xDFFF) return {};                        // surrogates
  if (code > 0x10FFFF) return {};
  return {code, n};
}

// Code points a terminal acts on, or that reorder, hide or break the text
// around them: C1 controls, the bidi marks, embeddings, overrides and
// isolates, zero-width characters, the line and paragraph separators, the
// byte order mark and the noncharacters U+FFFE and U+FFFF.
bool is_hidden_control(char32_t c) {
  return (c >= 0x80 && c <= 0x9F) || c == 0x061C || (c >= 0x200B && c <= 0x200F) ||
         (c >= 0x2028 && c <= 0x202E) || (c >= 0x2060 && c <= 0x2069) || c == 0xFEFF ||
         c == 0xFFFE || c == 0xFFFF;
}

void hex_byte(std::string& out, unsigned char c) {
  static const char* const kHex = "0123456789abcdef";
  out += "\\x";
  out += kHex[c >> 4];
  out += kHex[c & 15];
}

void code_point(std::string& out, char32_t c) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
  out += buf;
}

// Whether every byte is printable ASCII: nothing to encode for a terminal.
bool plain_ascii(std::string_view text) {
  for (char ch : text) {
    auto c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c >= 0x7F) return false;
  }
  return true;
}

bool is_ascii_punctuation(unsigned char c) {
  return (c >= 0x21 && c <= 0x2F) || (c >= 0x3A && c <= 0x40) || (c >= 0x5B && c <= 0x60) ||
         (c >= 0x7B && c <= 0x7E);
}

}  // namespace

bool is_utf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    if (static_cast<unsigned char>(text[i]) < 0x80) {
      ++i;
      continue;
    }
    Decoded d = decode(text, i);
    if (d.length == 0) return false;
    i += d.length;
  }
  return true;
}

namespace {

// The terminal's encoding; with `lines`, line breaks and tabs stay.
void encode_for_terminal(std::string& out, std::string_view text, bool lines) {
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      if (lines && (c == '\n' || c == '\r' || c == '\t')) {
        out += static_cast<char>(c);
        ++i;
        continue;
      }
      switch (c) {
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
          if (c < 0x20 || c == 0x7F) {
            hex_byte(out, c);
          } else {
            out += static_cast<char>(c);
          }
      }
      ++i;
      continue;
    }
    Decoded d = decode(text, i);
    if (d.length == 0) {
      hex_byte(out, c);
      ++i;
    } else if (d.code >= 0x80 && d.code <= 0x9F) {
      for (std::size_t k = 0; k < d.length; ++k)
        hex_byte(out, static_cast<unsigned char>(text[i + k]));
      i += d.length;
    } else if (is_hidden_control(d.code)) {
      code_point(out, d.code);
      i += d.length;
    } else {
      out.append(text.substr(i, d.length));
      i += d.length;
    }
  }
}

}  // namespace

void append_for_terminal(std::string& out, Untrusted untrusted) {
  std::string_view text = untrusted.raw();
  if (plain_ascii(text)) {
    out += text;
    return;
  }
  encode_for_terminal(out, text, false);
}

std::string for_code_block(Untrusted text) {
  std::string out;
  out.reserve(text.raw().size());
  encode_for_terminal(out, text.raw(), true);
  return out;
}

std::string for_terminal(Untrusted text) {
  std::string out;
  out.reserve(text.raw().size());
  append_for_terminal(out, text);
  return out;
}

namespace {

std::string for_workflow(Untrusted text, bool property) {
  std::string safe = for_terminal(text);
  std::string out;
  out.reserve(safe.size());
  for (char c : safe) {
    switch (c) {
      case '%':
        out += "%25";
        break;
      case ':':
        out += property ? "%3A" : ":";
        break;
      case ',':
        out += property ? "%2C" : ",";
        break;
      default:
        out += c;  // no CR or LF is left
    }
  }
  return out;
}

}  // namespace

std::string for_workflow_message(Untrusted text) {
  return for_workflow(text, false);
}

std::string for_workflow_property(Untrusted text) {
  return for_workflow(text, true);
}

void append_for_markdown(std::string& out, Untrusted text) {
  for (char ch : for_terminal(text)) {
    if (is_ascii_punctuation(static_cast<unsigned char>(ch))) out += '\\';
    out += ch;
  }
}

std::string for_markdown(Untrusted text) {
  std::string out;
  out.reserve(text.raw().size() + text.raw().size() / 4);
  append_for_markdown(out, text);
  return out;
}

std::string for_xml(Untrusted text) {
  std::string out;
  for (char c : for_terminal(text)) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string for_json(Untrusted untrusted) {
  std::string_view text = untrusted.raw();
  if (is_utf8(text)) return std::string(text);
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    Decoded d = decode(text, i);
    if (d.length == 0) {
      hex_byte(out, static_cast<unsigned char>(text[i]));
      ++i;
    } else {
      out.append(text.substr(i, d.length));
      i += d.length;
    }
  }
  return out;
}

std::string for_html(Untrusted text) {
  std::string out;
  for (char c : for_terminal(text)) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace archfit
