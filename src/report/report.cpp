#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <tuple>

#include <archfit/base/error.hpp>
#include <archfit/base/text.hpp>
#include <archfit/report/report.hpp>

#include "report/writers.hpp"

namespace archfit::report {

using findings::Finding;
using findings::Severity;

namespace {

constexpr Format kFormats[] = {Format::Text,   Format::Json,  Format::Sarif,
                               Format::Github, Format::Junit, Format::Markdown};

}  // namespace

std::string_view format_name(Format f) {
  switch (f) {
    case Format::Text:
      return "text";
    case Format::Json:
      return "json";
    case Format::Sarif:
      return "sarif";
    case Format::Github:
      return "github";
    case Format::Junit:
      return "junit";
    case Format::Markdown:
      return "markdown";
  }
  return "text";
}

const std::vector<std::string>& format_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (Format f : kFormats)
      out.emplace_back(format_name(f));
    return out;
  }();
  return names;
}

Format parse_format(std::string_view name) {
  for (Format f : kFormats) {
    if (format_name(f) == name) return f;
  }
  std::string known;
  for (const std::string& n : format_names())
    known += (known.empty() ? "" : ", ") + n;
  fail(ErrorKind::Usage, "unknown format \"" + std::string(name) + "\"; use " + known);
}

void Counts::add(findings::Severity s) {
  switch (s) {
    case findings::Severity::Error:
      ++errors;
      break;
    case findings::Severity::Warning:
      ++warnings;
      break;
    case findings::Severity::Info:
      ++infos;
      break;
  }
}

std::size_t Counts::at_least(findings::Severity s) const {
  switch (s) {
    case findings::Severity::Error:
      return errors;
    case findings::Severity::Warning:
      return errors + warnings;
    case findings::Severity::Info:
      return errors + warnings + infos;
  }
  return 0;
}

void sort_findings(std::vector<findings::Finding>& findings) {
  std::stable_sort(findings.begin(), findings.end(),
                   [](const findings::Finding& a, const findings::Finding& b) {
                     return std::tie(a.file, a.document, a.line, a.column, a.rule) <
                            std::tie(b.file, b.document, b.line, b.column, b.rule);
                   });
}

std::unique_ptr<Writer> make_writer(Format format, std::ostream& out,
                                    const WriterOptions& options) {
  switch (format) {
    case Format::Text:
      return detail::text_writer(out, options);
    case Format::Json:
      return detail::json_writer(out, options);
    case Format::Sarif:
      return detail::sarif_writer(out, options);
    case Format::Github:
      return detail::github_writer(out, options);
    case Format::Junit:
      return detail::junit_writer(out, options);
    case Format::Markdown:
      return detail::markdown_writer(out, options);
  }
  return detail::text_writer(out, options);
}

namespace {

// A template's path as helm writes it in `# Source:` (chart/templates/x.yaml):
// relative, and no component empty, "." or "..". Anything else could lead
// out of the source root, and is no template's path.
bool is_template_path(std::string_view path) {
  if (path.empty() || path.front() == '/') return false;
  for (std::string_view part : split(path, '/')) {
    if (part.empty() || part == "." || part == "..") return false;
  }
  return true;
}

}  // namespace

std::string source_path(const findings::Finding& f, const WriterOptions& options) {
  if (!is_template_path(f.source)) return "";
  if (options.source_root.empty()) return f.source;
  return (std::filesystem::path(options.source_root) / f.source).lexically_normal().string();
}

// FNV-1a, 64 bits, over the parts with a separator no part contains.
std::string fingerprint(const findings::Finding& f) {
  std::uint64_t h = 14695981039346656037ull;
  auto mix = [&h](std::string_view part) {
    for (unsigned char c : part) {
      h ^= c;
      h *= 1099511628211ull;
    }
    h ^= 0xFF;  // not UTF-8: cannot occur inside a part
    h *= 1099511628211ull;
  };
  const std::string field = yaml::field_text(f.field_path);
  for (std::string_view part : {std::string_view(f.rule), std::string_view(f.resource.kind),
                                std::string_view(f.resource.namespace_name),
                                std::string_view(f.resource.name), std::string_view(field)}) {
    mix(part);
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

namespace detail {

std::string plural(std::size_t n, const char* word) {
  std::string out = std::to_string(n) + " " + word;
  if (n != 1) out += 's';
  return out;
}

}  // namespace detail

}  // namespace archfit::report
