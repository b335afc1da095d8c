#include <archfit/manifest/source.hpp>

namespace archfit::manifest {

std::string source_comment(std::string_view text) {
  constexpr std::string_view kPrefix = "# Source: ";
  while (!text.empty()) {
    std::size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.starts_with(kPrefix)) {
      std::string_view path = line.substr(kPrefix.size());
      while (!path.empty() && (path.back() == ' ' || path.back() == '\t'))
        path.remove_suffix(1);
      return std::string(path);
    }
    // Only markers, directives, comments and blank lines come before it.
    bool preamble = line.empty() || line[0] == '#' || line[0] == '%' || line.starts_with("---") ||
                    line.find_first_not_of(" \t") == std::string_view::npos;
    if (!preamble || end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return {};
}

std::string source_annotation(const Workload& workload) {
  yaml::NodeRef value = workload.object.get("metadata").get("annotations").get(kPostrenderFilename);
  return value && value.is_scalar() ? std::string(value.scalar()) : std::string();
}

}  // namespace archfit::manifest
