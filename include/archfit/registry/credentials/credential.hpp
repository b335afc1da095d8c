// Credentials for one registry, as found by a keychain source. They are used
// in requests and never printed, logged or written to the cache: messages name
// only `source`.
#pragma once

#include <string>

namespace archfit::registry {

struct Credential {
  std::string username;        // basic auth, or the client of a token exchange
  std::string password;        // basic auth password or secret
  std::string identity_token;  // OAuth2 refresh token (docker "identitytoken", helper
                               // username "<token>"): exchanged by POST at the token realm
  std::string registry_token;  // a bearer token sent as is (docker "registrytoken")
  // Where it came from, for messages: "~/.docker/config.json auths",
  // "docker-credential-pass (credsStore in ~/.docker/config.json)",
  // "~/creds/ghcr.io.toml", "pull secret shop/regcred".
  std::string source;

  bool empty() const {
    return username.empty() && password.empty() && identity_token.empty() && registry_token.empty();
  }
};

}  // namespace archfit::registry
