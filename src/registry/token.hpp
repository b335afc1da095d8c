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

#include <archfit/registry/challenge.hpp>
#include <archfit/registry/credential.hpp>
#include <archfit/registry/http.hpp>

namespace archfit::registry {

struct TokenRequest {
  const Challenge& bearer;  // realm and service
  const std::set<std::string>& scopes;
  const std::optional<Credential>& credential;
};

struct TokenAnswer {
  std::string token;  // "token", else "access_token"
  std::chrono::seconds expires_in{60};
};

// Sends one request to `host`, with retries; throws RegistryError when no
// answer came. `what` names the request in messages.
using Perform = std::function<HttpResponse(HttpRequest request, const std::string& host,
                                           const std::string& what)>;

// Throws RegistryError naming the token server, its status and the
// credentials' source when it refuses or answers without a token.
TokenAnswer fetch_token(const TokenRequest& request, const Perform& perform,
                        const std::string& image);

}  // namespace archfit::registry
