#include "registry/transport/url.hpp"

#include <archfit/base/text.hpp>

namespace archfit::registry {

namespace {

// Scheme and authority of an absolute URL; false when there is no "://".
bool split_url(std::string_view url, std::string_view& scheme, std::string_view& authority,
               std::string_view& rest) {
  std::size_t sep = url.find("://");
  if (sep == std::string_view::npos) return false;
  scheme = url.substr(0, sep);
  std::string_view after = url.substr(sep + 3);
  std::size_t end = after.find_first_of("/?#");
  authority = after.substr(0, end);
  rest = end == std::string_view::npos ? std::string_view() : after.substr(end);
  return true;
}

}  // namespace

std::string origin_of(std::string_view url) {
  std::string_view scheme, authority, rest;
  if (!split_url(url, scheme, authority, rest)) return {};
  std::string s = to_lower(scheme);
  std::string a = to_lower(authority);
  if (std::size_t at = a.rfind('@'); at != std::string::npos) a.erase(0, at + 1);
  if ((s == "https" && a.ends_with(":443")) || (s == "http" && a.ends_with(":80"))) {
    a.erase(a.rfind(':'));
  }
  return s + "://" + a;
}

std::string host_of(std::string_view url) {
  std::string_view scheme, authority, rest;
  if (!split_url(url, scheme, authority, rest)) return {};
  return std::string(authority);
}

std::string resolve_location(std::string_view base, std::string_view location) {
  if (location.find("://") != std::string_view::npos) return std::string(location);
  std::string_view scheme, authority, rest;
  if (!split_url(base, scheme, authority, rest)) return std::string(location);
  if (location.starts_with("//")) return std::string(scheme) + ":" + std::string(location);
  std::string prefix = std::string(scheme) + "://" + std::string(authority);
  if (location.starts_with("/")) return prefix + std::string(location);
  std::string_view path = rest.substr(0, rest.find_first_of("?#"));
  std::size_t slash = path.rfind('/');
  std::string dir = slash == std::string_view::npos ? "/" : std::string(path.substr(0, slash + 1));
  return prefix + dir + std::string(location);
}

std::string redact_url(std::string_view url) {
  return std::string(url.substr(0, url.find_first_of("?#")));
}

std::string form_encode(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                c == '-' || c == '_' || c == '.' || c == '~';
    if (keep) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

}  // namespace archfit::registry
