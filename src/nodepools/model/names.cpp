#include <archfit/nodepools/model/names.hpp>

namespace archfit::nodepools {

namespace {

// The rules, each giving the first rule `text` breaks ("" for none).

bool is_alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}
bool is_lower_alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

// The name part of a qualified name, and a label value when not empty.
std::string broken_name_rule(std::string_view text) {
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

std::string broken_subdomain_rule(std::string_view text) {
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

std::string broken_qualified_name_rule(std::string_view text) {
  if (text.empty()) return "must not be empty";
  std::size_t slash = text.find('/');
  if (slash == std::string_view::npos) return broken_name_rule(text);
  if (text.find('/', slash + 1) != std::string_view::npos) return "may contain at most one '/'";
  std::string_view prefix = text.substr(0, slash);
  std::string_view name = text.substr(slash + 1);
  if (prefix.empty()) return "has an empty prefix before '/'";
  if (std::string p = broken_subdomain_rule(prefix); !p.empty()) return "prefix " + p;
  if (name.empty()) return "has an empty name after '/'";
  return broken_name_rule(name);
}

std::string broken_label_value_rule(std::string_view text) {
  return text.empty() ? std::string() : broken_name_rule(text);
}

std::string broken_dns_label_rule(std::string_view text) {
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

}  // namespace

bool is_valid(Syntax syntax, std::string_view text, std::string* why) {
  std::string problem;
  switch (syntax) {
    case Syntax::QualifiedName:
      problem = broken_qualified_name_rule(text);
      break;
    case Syntax::LabelValue:
      problem = broken_label_value_rule(text);
      break;
    case Syntax::DnsLabel:
      problem = broken_dns_label_rule(text);
      break;
    case Syntax::DnsSubdomain:
      problem = text.empty() ? "must not be empty" : broken_subdomain_rule(text);
      break;
  }
  if (problem.empty()) return true;
  if (why != nullptr) *why = std::move(problem);
  return false;
}

}  // namespace archfit::nodepools
