// The client side of docker's credential helper protocol: run
// `docker-credential-<helper> get` with the server URL on stdin and read
// {"ServerURL", "Username", "Secret"} from its stdout. A helper that knows
// nothing about the server says "credentials not found" and exits non-zero.
#pragma once

#include <optional>
#include <string>

#include <archfit/registry/credentials/credential.hpp>
#include <archfit/registry/credentials/keychain.hpp>

namespace archfit::registry {

// `label` names the helper and where it was configured, for
// Credential::source and messages: "docker-credential-pass (credsStore in
// ~/.docker/config.json)". nullopt when the helper has no credentials for
// the server. Throws Error(Config) naming the label, the server and the
// helper's own message when it fails otherwise; never quotes its stdout
// when that may hold a secret.
std::optional<Credential> ask_helper(const HelperRunner& run, const std::string& helper,
                                     const std::string& server_url, const std::string& label);

// The helper program for a credsStore or credHelpers value: "docker-credential-<name>".
std::string helper_program(const std::string& helper);

}  // namespace archfit::registry
