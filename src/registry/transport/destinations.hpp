// Where requests on a registry's behalf may go, and where its credentials
// may. A registry names other places itself: the token server in its Bearer
// challenge, storage in its redirects. It does not get to send archfit, or
// the user's credentials, anywhere it likes:
//   - nothing goes to a link-local address (169.254.0.0/16, fe80::/10, the
//     cloud metadata services there and at fd00:ec2::254, and their names)
//     unless the registry itself is there;
//   - credentials go to the registry's own host, to a token server on that
//     host, or to a token server reached over https; never over plain http to
//     another host, and never to another port of the loopback interface (any
//     local program can listen there). Judged by name first, and again by
//     the address connected to: a name can resolve to loopback
//     (HttpRequest::allow_loopback).
// docs/registry.md states these rules for users.
#pragma once

#include <optional>
#include <string>
#include <string_view>

struct sockaddr;

namespace archfit::registry {

struct Destination {
  std::string scheme;  // "http" or "https"
  std::string host;    // lowercase; an IPv6 address without brackets
  int port = 0;        // as given, else the scheme's
};

// nullopt for a URL that is not absolute http(s) with a host, or that holds
// a control character, a blank or a byte outside ASCII.
std::optional<Destination> destination_of(std::string_view url);

// localhost, *.localhost, or an address of this machine (127.0.0.0/8, ::1,
// 0.0.0.0/8, ::, also mapped and in the resolver's short forms: "127.1").
bool is_loopback(std::string_view host);
// The same for an address about to be connected to.
bool is_loopback(const sockaddr* address);
// A link-local address or a name of a cloud metadata service.
bool is_link_local(std::string_view host);
// The same for an address about to be connected to (IPv4, IPv6, and IPv4
// mapped into IPv6).
bool is_link_local(const sockaddr* address);

// Why nothing may be sent to `target` on behalf of the registry at
// `registry`; "" when it may. `what` names the target in the message
// ("the token server", "a redirect").
std::string refuse_request(const Destination& registry, const Destination& target,
                           std::string_view what);
// Why the registry's credentials may not go to the token server `target`;
// "" when they may.
std::string refuse_credentials(const Destination& registry, const Destination& target);

}  // namespace archfit::registry
