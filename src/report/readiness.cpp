// The readiness report's names, and which writer a style takes.
#include <archfit/report/readiness.hpp>

#include "report/readiness_writers.hpp"

namespace archfit::report {

namespace {

bool ends_with_any(std::string_view path, std::initializer_list<std::string_view> suffixes) {
  for (std::string_view s : suffixes) {
    if (path.size() >= s.size()) {
      std::string_view tail = path.substr(path.size() - s.size());
      bool same = true;
      for (std::size_t i = 0; i < s.size() && same; ++i)
        same = (tail[i] | 0x20) == s[i];  // ASCII letters and dots: case-insensitive
      if (same) return true;
    }
  }
  return false;
}

}  // namespace

const std::vector<std::string>& readiness_names() {
  static const std::vector<std::string> names = {"readiness", "readiness-text", "readiness-json",
                                                 "readiness-markdown", "readiness-html"};
  return names;
}

bool is_readiness_name(std::string_view name) {
  for (const std::string& n : readiness_names()) {
    if (n == name) return true;
  }
  return false;
}

std::optional<ReadinessStyle> readiness_style(std::string_view name, std::string_view path) {
  if (name == "readiness-text") return ReadinessStyle::Text;
  if (name == "readiness-json") return ReadinessStyle::Json;
  if (name == "readiness-markdown") return ReadinessStyle::Markdown;
  if (name == "readiness-html") return ReadinessStyle::Html;
  if (name != "readiness") return std::nullopt;
  if (ends_with_any(path, {".json"})) return ReadinessStyle::Json;
  if (ends_with_any(path, {".md", ".markdown"})) return ReadinessStyle::Markdown;
  if (ends_with_any(path, {".html", ".htm"})) return ReadinessStyle::Html;
  return ReadinessStyle::Text;
}

void write_readiness(const Readiness& r, ReadinessStyle style, std::ostream& out) {
  switch (style) {
    case ReadinessStyle::Text:
      return detail::readiness_text(r, out);
    case ReadinessStyle::Json:
      return detail::readiness_json(r, out);
    case ReadinessStyle::Markdown:
      return detail::readiness_markdown(r, out);
    case ReadinessStyle::Html:
      return detail::readiness_html(r, out);
  }
}

}  // namespace archfit::report
