// The URL handling the registry client needs: origins (to keep Authorization
// on the origin it belongs to), where a URL leads, redirect targets, queries,
// form encoding, and URLs fit to print. URLs are read with libcurl's URL API,
// as libcurl reads the URLs it connects to.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace archfit::registry {

// "https://host:port" of an absolute URL, scheme and host lowercased, the
// default port left out; "" when the URL has no scheme.
std::string origin_of(std::string_view url);
// The host and port ("host:port", the port when given) of an absolute URL.
std::string host_of(std::string_view url);
// A Location header resolved against the URL it answered.
std::string resolve_location(std::string_view base, std::string_view location);
// The URL with `query` (encoded already) added to its query; "" when it is not
// a URL.
std::string with_query(std::string_view url, const std::string& query);
// Where an absolute URL leads: its scheme, lowercased; its host, without the
// brackets of an IPv6 address; its port, the scheme's default when none is given.
struct UrlParts {
  std::string scheme;
  std::string host;
  int port = 0;
};
std::optional<UrlParts> url_parts(std::string_view url);
// The URL without query and fragment: presigned URLs carry signatures there.
std::string redact_url(std::string_view url);
// application/x-www-form-urlencoded / query component encoding.
std::string form_encode(std::string_view text);

}  // namespace archfit::registry
