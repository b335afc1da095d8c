// Parsing and formatting of platform strings; normalization is in platform_database.cpp.
#include <algorithm>
#include <vector>

#include <archfit/base/error.hpp>
#include <archfit/base/text.hpp>
#include <archfit/image/platform.hpp>

namespace archfit::image {

namespace {

using Broken = std::optional<std::string>;

constexpr std::size_t kMaxParts = 3;

bool is_alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}
bool is_os_char(char c) {
  return is_alnum(c) || c == '_' || c == '-';
}
bool is_component_char(char c) {
  return is_os_char(c) || c == '.';
}

bool all_of(std::string_view text, bool (*pred)(char)) {
  return std::all_of(text.begin(), text.end(), pred);
}

Broken check_component(std::string_view what, std::string_view value) {
  if (value.empty()) return std::string(what) + " is empty";
  if (!all_of(value, is_component_char)) {
    return std::string(what) + " " + quoted(value) +
           " may contain only letters, digits, '_', '.' and '-'";
  }
  return std::nullopt;
}

Broken check_os_version(std::string_view version) {
  if (version.find('+') != std::string_view::npos) {
    return std::string("os features ('+' in the parentheses) are not supported");
  }
  if (!all_of(version, is_component_char)) {
    return "os version " + quoted(version) + " may contain only letters, digits, '_', '.' and '-'";
  }
  return std::nullopt;
}

Broken check_os_name(std::string_view os) {
  if (os.empty()) return std::string("os is empty");
  if (!all_of(os, is_os_char)) {
    return "os " + quoted(os) + " may contain only letters, digits, '_' and '-'";
  }
  return std::nullopt;
}

// "<os>" or "<os>(<version>)", containerd's way of writing a Windows build.
Broken parse_os(std::string_view text, Platform& out) {
  std::string_view os = text;
  std::string_view version;
  if (auto open = text.find('('); open != std::string_view::npos) {
    if (text.back() != ')') return "os " + quoted(text) + " has '(' without a closing ')'";
    os = text.substr(0, open);
    version = text.substr(open + 1, text.size() - open - 2);
    if (auto broken = check_os_version(version)) return broken;
  }
  if (auto broken = check_os_name(os)) return broken;
  out.os = std::string(os);
  out.os_version = std::string(version);
  return std::nullopt;
}

Broken parse_single(std::string_view word, Platform& out) {
  if (word.find('(') != std::string_view::npos || is_known_os(normalize_os(word))) {
    return std::string("an os alone does not say which architecture; write os/arch, ") +
           "e.g. linux/amd64";
  }
  if (auto broken = check_component("architecture", word)) return broken;
  auto [arch, variant] = normalize_architecture(word, "");
  if (!is_known_architecture(arch)) {
    return "unknown architecture " + quoted(word) + "; write os/arch (e.g. linux/" +
           std::string(word) +
           ") to name one that is not "
           "in Go's list";
  }
  out.os = "linux";
  out.architecture = std::string(word);
  return std::nullopt;
}

Broken parse_into(std::string_view text, Platform& out) {
  if (text.empty()) return std::string("platform is empty");
  if (text.find('*') != std::string_view::npos) {
    return std::string("wildcards are not supported");
  }
  std::vector<std::string_view> parts = split(text, '/');
  if (parts.size() > kMaxParts) {
    return std::string("too many '/'-separated parts; expected os/arch[/variant]");
  }
  if (parts.size() == 1) return parse_single(parts[0], out);
  if (auto broken = parse_os(parts[0], out)) return broken;
  if (auto broken = check_component("architecture", parts[1])) return broken;
  out.architecture = std::string(parts[1]);
  if (parts.size() == 3) {
    if (auto broken = check_component("variant", parts[2])) return broken;
    out.variant = std::string(parts[2]);
  }
  return std::nullopt;
}

std::string message_for(std::string_view text, const std::string& rule) {
  return "invalid platform " + quoted(text) + ": " + rule;
}

}  // namespace

std::optional<Platform> Platform::try_parse(std::string_view text, std::string* why) {
  Platform raw;
  if (auto broken = parse_into(text, raw)) {
    if (why) *why = message_for(text, *broken);
    return std::nullopt;
  }
  return raw.normalized();
}

Platform Platform::parse(std::string_view text) {
  std::string why;
  auto platform = try_parse(text, &why);
  if (!platform) fail(ErrorKind::Input, std::move(why));
  return std::move(*platform);
}

Platform Platform::from_parts(std::string_view os, std::string_view architecture,
                              std::string_view variant, std::string_view os_version) {
  std::string joined = std::string(os) + '/' + std::string(architecture);
  if (!variant.empty()) joined += '/' + std::string(variant);
  Broken broken = check_os_name(os);
  if (!broken) broken = check_component("architecture", architecture);
  if (!broken && !variant.empty()) broken = check_component("variant", variant);
  if (!broken) broken = check_os_version(os_version);
  if (broken) fail(ErrorKind::Input, message_for(joined, *broken));
  return Platform{std::string(os), std::string(architecture), std::string(variant),
                  std::string(os_version)}
      .normalized();
}

std::string Platform::str() const {
  Platform n = normalized();
  std::string out = n.os + '/' + n.architecture;
  if (!n.variant.empty()) out += '/' + n.variant;
  return out;
}

}  // namespace archfit::image
