// The JSON format that docker's config.json, podman's auth.json and the
// kubernetes.io/dockerconfigjson pull secret share:
//   {"auths": {"<registry key>": {"auth": base64("user:password"),
//                                 "username", "password", "identitytoken", "registrytoken"}},
//    "credHelpers": {"<registry key>": "<helper>"}, "credsStore": "<helper>"}
// One reader for all three, so that they agree on every detail. Other keys
// (docker keeps many settings in config.json) are ignored.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <archfit/base/error.hpp>
#include <archfit/registry/credentials/pull_secrets.hpp>

namespace archfit::registry {

struct AuthsJson {
  std::vector<AuthEntry> auths;  // in document order; Credential::source left empty
  std::vector<std::pair<std::string, std::string>> cred_helpers;  // registry key -> helper
  std::string creds_store;                                        // "" when not set
};

struct AuthsJsonFormat {
  ErrorKind kind = ErrorKind::Config;
  std::string file;     // located errors when not empty: "file:line:col: ..."
  std::string prefix;   // put before every message: "pull secret shop/regcred: "
  bool legacy = false;  // the document is the auths map itself (.dockercfg)
};

// Throws Error(format.kind) for text that is not JSON, for values of the
// wrong type, and for an "auth" that is not base64 of "user:password". The
// messages name the key path (auths."ghcr.io".auth) and never the value.
AuthsJson parse_auths_json(std::string_view text, const AuthsJsonFormat& format);

}  // namespace archfit::registry
