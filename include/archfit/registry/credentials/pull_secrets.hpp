// Image pull secrets from the input stream (kubernetes.io/dockerconfigjson and
// kubernetes.io/dockercfg), matched against images the way kubelet does:
// registry keys are normalized (scheme and a trailing "/v1/" or "/" dropped),
// host labels match with globs ("*.example.com" matches "a.example.com" but not
// "example.com"), the port must match, and a key's path is a prefix of the
// image's repository path on component boundaries. Docker Hub keys
// ("https://index.docker.io/v1/", "docker.io", "index.docker.io") match
// docker.io images.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <archfit/image/reference.hpp>
#include <archfit/registry/credentials/credential.hpp>

namespace archfit::registry {

struct AuthEntry {
  std::string key;  // as written: "https://index.docker.io/v1/", "*.azurecr.io"
  Credential credential;
};

struct PullSecretAuths {
  std::string secret;  // "namespace/name", used in Credential::source ("pull secret ns/name")
  std::vector<AuthEntry> entries;
};

// `json` is the decoded .dockerconfigjson ({"auths": {...}}) or, when `legacy`,
// the decoded .dockercfg (the auths map itself). Each entry's "auth" (base64
// "user:password") or "username"/"password" give the credential. Throws
// Error(Input) "pull secret <secret>: <what is wrong>" for invalid JSON or
// an "auth" that is not base64 of "user:password"; secrets are never quoted.
PullSecretAuths parse_pull_secret(std::string_view json, const std::string& secret, bool legacy);

// Every credential of these secrets that matches the image, most specific key
// first (as kubelet orders them), secrets in the order given.
std::vector<Credential> match_pull_secrets(const std::vector<PullSecretAuths>& secrets,
                                           const image::Reference& image);

}  // namespace archfit::registry
