#include <archfit/base/indentation.hpp>

namespace archfit {

bool unindent(std::string_view text, std::size_t indent, bool all, std::string& out) {
  const std::string pad(indent, ' ');
  std::size_t at = 0;
  bool first = !all;
  while (at < text.size()) {
    std::size_t nl = text.find('\n', at);
    std::size_t end = nl == std::string_view::npos ? text.size() : nl + 1;
    std::string_view line = text.substr(at, end - at);
    if (first || line == "\n") {
      out += line;
    } else {
      if (line.substr(0, indent) != pad) return false;
      out += line.substr(indent);
    }
    first = false;
    at = end;
  }
  return true;
}

void Indenter::add(std::string_view s) {
  while (!s.empty()) {
    if (newline_held_) {
      put_("\n");
      newline_held_ = false;
    }
    if (at_line_start_ && s.front() != '\n') put_(pad_);
    std::size_t nl = s.find('\n');
    std::size_t n = nl == std::string_view::npos ? s.size() : nl;
    if (n > 0) put_(s.substr(0, n));
    s.remove_prefix(n);
    at_line_start_ = nl != std::string_view::npos;
    if (at_line_start_) {
      newline_held_ = true;
      s.remove_prefix(1);
    }
  }
}

void Indenter::finish(bool line_break) {
  if (newline_held_ && line_break) put_("\n");
  newline_held_ = false;
}

}  // namespace archfit
