#include <archfit/config/names.hpp>

namespace archfit::config {

namespace {

bool is_alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}
bool is_lower_alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

// The name part of a qualified name, and a label value when not empty.
std::string name_problem(std::string_view text) {
  if (text.size() > 63) return "must be at most 63 characters";
  if (!is_alnum(text.front()) || !is_alnum(text.back())) {
    return "must start and end with a letter or digit";
  }
  for (char c : text) {
    if (!is_alnum(c) && c != '-' && c != '_' && c != '.') {
      return "may contain only letters, digits, '-', '_' and '.'";
    }
  }
  return {};
}

std::string subdomain_problem(std::string_view text) {
  if (text.size() > 253) return "must be at most 253 characters";
  for (std::size_t start = 0;;) {
    std::size_t dot = text.find('.', start);
    std::string_view label = text.substr(start, dot == std::string_view::npos ? dot : dot - start);
    if (label.empty() || !is_lower_alnum(label.front()) || !is_lower_alnum(label.back())) {
      return "must be lowercase DNS labels separated by '.', each starting and ending with a "
             "letter or digit";
    }
    for (char c : label) {
      if (!is_lower_alnum(c) && c != '-') {
        return "may contain only lowercase letters, digits, '-' and '.'";
      }
    }
    if (dot == std::string_view::npos) return {};
    start = dot + 1;
  }
}

}  // namespace

std::string qualified_name_problem(std::string_view text) {
  if (text.empty()) return "must not be empty";
  std::size_t slash = text.find('/');
  if (slash == std::string_view::npos) return name_problem(text);
  if (text.find('/', slash + 1) != std::string_view::npos) return "may contain at most one '/'";
  std::string_view prefix = text.substr(0, slash);
  std::string_view name = text.substr(slash + 1);
  if (prefix.empty()) return "has an empty prefix before '/'";
  if (std::string p = subdomain_problem(prefix); !p.empty()) return "prefix " + p;
  if (name.empty()) return "has an empty name after '/'";
  return name_problem(name);
}

std::string label_value_problem(std::string_view text) {
  return text.empty() ? std::string() : name_problem(text);
}

std::string dns_label_problem(std::string_view text) {
  if (text.empty()) return "must not be empty";
  if (text.size() > 63) return "must be at most 63 characters";
  if (!is_lower_alnum(text.front()) || !is_lower_alnum(text.back())) {
    return "must start and end with a lowercase letter or digit";
  }
  for (char c : text) {
    if (!is_lower_alnum(c) && c != '-') return "may contain only lowercase letters, digits and '-'";
  }
  return {};
}

}  // namespace archfit::config
