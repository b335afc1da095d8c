#include <cctype>
#include <cstdio>

#include <archfit/base/text.hpp>
#include <archfit/base/untrusted.hpp>

namespace archfit {

std::string quoted(std::string_view text, std::size_t max_len) {
  bool cut = text.size() > max_len;
  if (cut) text = text.substr(0, max_len);
  // The terminal's encoding (base/untrusted.hpp), with the quote and the
  // backslash escaped too: runs between them go to it whole ('"' and '\\'
  // are never part of a longer UTF-8 sequence).
  std::string out = "\"";
  std::size_t from = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && text[i] != '"' && text[i] != '\\') continue;
    append_for_terminal(out, Untrusted(text.substr(from, i - from)));
    if (i < text.size()) out += text[i] == '"' ? "\\\"" : "\\\\";
    from = i + 1;
  }
  out += cut ? "...\"" : "\"";
  return out;
}

std::string printable(std::string_view text, std::size_t max_len) {
  bool cut = text.size() > max_len;
  if (cut) text = text.substr(0, max_len);
  std::string out = for_terminal(Untrusted(text));
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
