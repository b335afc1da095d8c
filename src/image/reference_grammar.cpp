#include "image/reference_grammar.hpp"

#include <algorithm>
#include <cstddef>
#include <string>

#include <archfit/base/text.hpp>

namespace archfit::image {

namespace {

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_lower_alnum(char c) {
  return (c >= 'a' && c <= 'z') || is_digit(c);
}
bool is_alnum(char c) {
  return is_lower_alnum(c) || (c >= 'A' && c <= 'Z');
}
bool is_word(char c) {
  return is_alnum(c) || c == '_';
}
bool is_hex(char c) {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
bool is_lower_hex(char c) {
  return is_digit(c) || (c >= 'a' && c <= 'f');
}

template <typename Pred>
bool all_of(std::string_view text, Pred pred) {
  return std::all_of(text.begin(), text.end(), pred);
}

// Algorithms registered by the OCI image spec have a fixed length and lowercase hex only;
// anything else is held to distribution's "at least 128 bits of hex".
struct RegisteredAlgorithm {
  std::string_view name;
  std::size_t hex_digits;
};
constexpr RegisteredAlgorithm kRegisteredAlgorithms[] = {
    {"sha256", 64},
    {"sha512", 128},
    {"blake3", 64},
};
constexpr std::size_t kMinDigestHex = 32;

// OCI descriptor: algorithm-component ([a-z0-9]+) joined by one of [+._-].
bool is_digest_algorithm(std::string_view algorithm) {
  bool want_component = true;
  for (char c : algorithm) {
    if (is_lower_alnum(c)) {
      want_component = false;
    } else if (!want_component && (c == '+' || c == '.' || c == '_' || c == '-')) {
      want_component = true;
    } else {
      return false;
    }
  }
  return !want_component;
}

// [a-z0-9]+ joined by '.', '_', '__' or a run of '-'.
bool is_path_component(std::string_view component) {
  std::size_t i = 0;
  const std::size_t n = component.size();
  for (;;) {
    if (i == n || !is_lower_alnum(component[i])) return false;
    while (i < n && is_lower_alnum(component[i]))
      ++i;
    if (i == n) return true;
    if (component[i] == '.') {
      ++i;
    } else if (component[i] == '_') {
      ++i;
      if (i < n && component[i] == '_') ++i;
    } else if (component[i] == '-') {
      while (i < n && component[i] == '-')
        ++i;
    } else {
      return false;
    }
  }
}

// One DNS label as docker accepts it: alphanumerics with inner dashes; case is free.
bool is_host_label(std::string_view label) {
  return !label.empty() && is_alnum(label.front()) && is_alnum(label.back()) &&
         all_of(label, [](char c) { return is_alnum(c) || c == '-'; });
}

Broken check_port(std::string_view registry, std::string_view port) {
  if (port.empty()) return "registry " + quoted(registry) + " has an empty port";
  if (!all_of(port, is_digit)) {
    return "registry port " + quoted(port) + " must be a number";
  }
  if (port.size() > 5 || std::stoul(std::string(port)) > 65535 ||
      std::stoul(std::string(port)) == 0) {
    return "registry port " + quoted(port) + " must be between 1 and 65535";
  }
  return std::nullopt;
}

Broken check_ipv6_registry(std::string_view registry) {
  std::size_t close = registry.find(']');
  if (close == std::string_view::npos) {
    return "IPv6 registry host " + quoted(registry) + " has no closing ']'";
  }
  std::string_view address = registry.substr(1, close - 1);
  if (address.find('%') != std::string_view::npos) {
    return "registry " + quoted(registry) + " has an IPv6 zone identifier ('%'), which " +
           "image references do not allow";
  }
  if (!all_of(address, [](char c) { return is_hex(c) || c == ':'; }) ||
      std::count(address.begin(), address.end(), ':') < 2) {
    return "registry " + quoted(registry) + " is not a valid bracketed IPv6 address";
  }
  std::string_view rest = registry.substr(close + 1);
  if (rest.empty()) return std::nullopt;
  if (rest.front() != ':') {
    return "registry " + quoted(registry) + " has text after ']' that is not a port";
  }
  return check_port(registry, rest.substr(1));
}

}  // namespace

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

bool is_image_id(std::string_view text) {
  return text.size() == 64 && all_of(text, is_lower_hex);
}

Broken check_tag(std::string_view tag) {
  if (tag.empty()) return "tag is empty";
  if (tag.size() > kMaxTagLength) {
    return "tag is longer than " + std::to_string(kMaxTagLength) + " characters (" +
           std::to_string(tag.size()) + ")";
  }
  if (!is_word(tag.front())) {
    return "tag " + quoted(tag) + " must start with a letter, digit or '_'";
  }
  if (!all_of(tag, [](char c) { return is_word(c) || c == '.' || c == '-'; })) {
    return "tag " + quoted(tag) + " may contain only letters, digits, '_', '.' and '-'";
  }
  return std::nullopt;
}

Broken check_digest(std::string_view digest) {
  if (digest.empty()) return "digest after '@' is empty";
  std::size_t colon = digest.find(':');
  if (colon == std::string_view::npos) {
    return "digest " + quoted(digest) + " must be algorithm:hex, e.g. sha256:<64 hex digits>";
  }
  std::string_view algorithm = digest.substr(0, colon);
  std::string_view hex = digest.substr(colon + 1);
  if (!is_digest_algorithm(algorithm)) {
    return "digest algorithm " + quoted(algorithm) +
           " must be lowercase letters and digits joined by '+', '.', '_' or '-'";
  }
  for (const auto& registered : kRegisteredAlgorithms) {
    if (algorithm != registered.name) continue;
    if (hex.size() != registered.hex_digits) {
      return std::string(algorithm) + " digest must have " + std::to_string(registered.hex_digits) +
             " hex digits, not " + std::to_string(hex.size());
    }
    if (!all_of(hex, is_lower_hex)) {
      return std::string(algorithm) + " digest must be lowercase hex (0-9, a-f)";
    }
    return std::nullopt;
  }
  if (!all_of(hex, is_hex)) return "digest " + quoted(digest) + " must be hex after the ':'";
  if (hex.size() < kMinDigestHex) {
    return "digest must have at least " + std::to_string(kMinDigestHex) + " hex digits, not " +
           std::to_string(hex.size());
  }
  return std::nullopt;
}

Broken check_registry(std::string_view registry) {
  if (registry.empty()) return "registry is empty";
  if (registry.front() == '[') return check_ipv6_registry(registry);
  std::size_t colon = registry.find(':');
  std::string_view host = registry.substr(0, colon);
  if (host.empty()) return "registry " + quoted(registry) + " has an empty host";
  std::size_t start = 0;
  for (;;) {
    std::size_t dot = host.find('.', start);
    if (!is_host_label(host.substr(start, dot - start))) {
      return "registry host " + quoted(host) +
             " is not a valid host name (letters, digits and inner '-', joined by '.')";
    }
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  if (colon == std::string_view::npos) return std::nullopt;
  return check_port(registry, registry.substr(colon + 1));
}

Broken check_path(std::string_view path) {
  std::size_t start = 0;
  for (;;) {
    std::size_t slash = path.find('/', start);
    if (slash == start || start == path.size()) {
      return "repository path " + quoted(path) +
             " has an empty component ('//', or '/' at the start or end)";
    }
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  if (!all_of(path, [](char c) { return !(c >= 'A' && c <= 'Z'); })) {
    return "repository name must be lowercase";
  }
  start = 0;
  for (;;) {
    std::size_t slash = path.find('/', start);
    std::string_view component = path.substr(start, slash - start);
    if (!is_path_component(component)) {
      return "path component " + quoted(component) +
             " must be lowercase letters and digits joined by '.', '_', '__' or dashes";
    }
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  if (path.size() > kMaxPathLength) {
    return "repository path is longer than " + std::to_string(kMaxPathLength) + " characters (" +
           std::to_string(path.size()) + ")";
  }
  return std::nullopt;
}

}  // namespace archfit::image
