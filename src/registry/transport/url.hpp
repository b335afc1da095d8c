// The little URL handling the registry client needs: origins (to keep
// Authorization on the origin it belongs to), redirect targets, form
// encoding, and URLs fit to print.
#pragma once

#include <string>
#include <string_view>

namespace archfit::registry {

// "https://host:port" of an absolute URL, scheme and host lowercased, the
// default port left out; "" when the URL has no scheme.
std::string origin_of(std::string_view url);
// The authority ("host:port") of an absolute URL.
std::string host_of(std::string_view url);
// A Location header resolved against the URL it answered.
std::string resolve_location(std::string_view base, std::string_view location);
// The URL without query and fragment: presigned URLs carry signatures there.
std::string redact_url(std::string_view url);
// application/x-www-form-urlencoded / query component encoding.
std::string form_encode(std::string_view text);

}  // namespace archfit::registry
