// Bearer tokens from a registry's token server (distribution's token.md and
// oauth.md): GET realm?scope=...&service=... with Basic credentials when there
// are some, or, for an identity (refresh) token, POST realm with
// grant_type=refresh_token, falling back to GET when the server answers 404.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <set>
#include <string>

#include <archfit/registry/credentials/credential.hpp>
#include <archfit/registry/protocol/challenge.hpp>
#include <archfit/registry/transport/http.hpp>

#include "registry/transport/destinations.hpp"

namespace archfit::registry {

struct TokenRequest {
  const Challenge& bearer;  // realm and service
  const std::set<std::string>& scopes;
  const std::optional<Credential>& credential;
  const Destination& registry;  // whose token it is: where the challenge came from
};

struct TokenAnswer {
  std::string token;  // "token", else "access_token"
  std::chrono::seconds expires_in{60};
};

// Tokens are header values: at most this long, visible ASCII only.
inline constexpr std::size_t kMaxTokenBytes = 16 * 1024;
// Longer lifetimes are taken as this one: no run lasts that long.
inline constexpr std::chrono::seconds kMaxTokenLifetime{24 * 3600};

// Why `token` cannot be sent in an Authorization header; "" when it can.
std::string unusable_token(std::string_view token);

// Sends one request to `host`, with retries; throws RegistryError when no
// answer came. `what` names the request in messages.
using Perform = std::function<HttpResponse(HttpRequest request, const std::string& host,
                                           const std::string& what)>;

// Throws RegistryError naming the token server, its status and the
// credentials' source when it refuses or answers without a usable token, and
// before asking when the realm is not one archfit may ask, or not with the
// credentials it has (destinations.hpp).
TokenAnswer fetch_token(const TokenRequest& request, const Perform& perform,
                        const std::string& image);

}  // namespace archfit::registry
