// One HTTP exchange as the registry client sees it: a request, and what came
// back or why nothing usable did. Transport is the seam between the protocol
// logic and the network: the real one drives libcurl (curl_transport.hpp),
// tests replace it with scripted answers.
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace archfit::registry {

using Headers = std::vector<std::pair<std::string, std::string>>;

struct HttpRequest {
  std::string method = "GET";  // GET, HEAD or POST
  std::string url;
  Headers headers;
  std::string body;  // POST only (form encoded)
  // A larger body is not read: the response fails with TooLarge.
  std::size_t max_body = 4 * 1024 * 1024;
  // Of an error answer (status 300 and above) only this much is kept; the
  // rest is read and dropped.
  std::size_t max_error_body = 64 * 1024;
  std::chrono::milliseconds timeout{30000};  // the whole exchange
  std::chrono::milliseconds connect_timeout{10000};
  bool verify_tls = true;
  std::string ca_file;  // "" = the system's trust store
  // Connect even where the host's address is link-local: set only for the
  // registry's own host, which the user named (see destinations.hpp).
  bool allow_link_local = false;
  // Connect even where the host's address is this machine's (loopback):
  // cleared for a request carrying the registry's credentials anywhere but
  // the registry's own host and port, which a name resolving to loopback
  // must not turn into another local port (see destinations.hpp).
  bool allow_loopback = true;
};

enum class Failure {
  None,       // a complete HTTP response (any status)
  Connect,    // could not connect or resolve the host
  Timeout,    // connect or request timeout
  Tls,        // handshake or certificate verification failed
  TooLarge,   // the body exceeded max_body
  Truncated,  // the connection closed before the body was complete
  Broken,     // an answer that breaks the protocol (HTTP/2 framing, headers past the limit)
  Refused,    // archfit would not send it: a link-local address, a control character
  Other,
};

struct HttpResponse {
  long status = 0;
  Headers headers;  // of the final response; names lowercased, in arrival order
  std::string body;
  Failure failure = Failure::None;
  std::string failure_message;  // libcurl's words, for messages; no credentials in it
  // It came over HTTP/2 (or later): the host's requests can share a connection.
  bool multiplexed = false;

  bool ok() const { return failure == Failure::None; }
  // The first header of that (lowercase) name.
  std::optional<std::string_view> header(std::string_view name) const;
  std::vector<std::string_view> headers_named(std::string_view name) const;
};

class Transport {
 public:
  virtual ~Transport() = default;
  // Blocks until the exchange ends. Safe to call from several threads at once;
  // redirects are not followed (the client decides where Authorization goes).
  virtual HttpResponse perform(const HttpRequest& request) = 0;
};

}  // namespace archfit::registry
