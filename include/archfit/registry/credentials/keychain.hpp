// Where registry credentials come from: a chain of sources asked in order, the
// first that knows the registry wins, none means anonymous. Each source names
// itself so that an authentication error can say which credentials were used.
//
// The default chain (default_keychain), most specific first:
//   1. resolve.credentialsDir: <dir>/<registry>.toml with user = "..." and secret = "..."
//   2. $REGISTRY_AUTH_FILE (podman/skopeo auth.json: "auths" like docker's)
//   3. the docker config (resolve.dockerConfig, else $DOCKER_CONFIG/config.json, else
//      ~/.docker/config.json): credHelpers[registry], then credsStore, then auths
// Pull secrets found in the manifests come before all of these; they belong to
// pod templates, not to the run, so the resolver passes them per image
// (pull_secrets.hpp).
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <archfit/base/environment.hpp>
#include <archfit/registry/credentials/credential.hpp>

namespace archfit::registry {

class CredentialSource {
 public:
  virtual ~CredentialSource() = default;
  // Credentials for `registry` (as image::Reference::registry() spells it:
  // "docker.io", "ghcr.io", "localhost:5000") and `repository` ("library/nginx");
  // nullopt when this source has none. Throws Error(Config) naming the file for a
  // source that exists but cannot be read or parsed, and for a credential helper
  // that fails for another reason than "credentials not found".
  virtual std::optional<Credential> find(std::string_view registry,
                                         std::string_view repository) const = 0;
  // For messages and -v logs: "~/.docker/config.json", "credentials dir /etc/archfit/creds".
  virtual std::string name() const = 0;
};

class Keychain {
 public:
  void add(std::unique_ptr<CredentialSource> source);
  // The first source's answer; nullopt = anonymous.
  std::optional<Credential> find(std::string_view registry, std::string_view repository) const;
  std::vector<std::string> source_names() const;

 private:
  std::vector<std::unique_ptr<CredentialSource>> sources_;
};

// Runs `docker-credential-<name> get` with the server URL on stdin. A seam:
// tests replace it; the real one runs the program from PATH with a timeout.
// A runner returns whatever the program said, whatever its exit code; it
// throws Error(Config) only when the program could not be run to the end (not
// found, killed after the timeout, too much output).
struct HelperOutput {
  int exit_code = 0;  // 128 + the signal number when killed by a signal
  std::string out;
  std::string err;
};
using HelperRunner =
    std::function<HelperOutput(const std::string& program, const std::string& server_url)>;

struct HelperRunnerOptions {
  std::chrono::milliseconds timeout = std::chrono::seconds(30);  // then the helper is killed
  std::size_t max_output = std::size_t{1} << 20;                 // bytes of stdout, and of stderr
  std::optional<std::string> path;  // directories to search, as in $PATH; nullopt = $PATH
};
HelperRunner process_helper_runner(HelperRunnerOptions options = {});

struct KeychainOptions {
  std::string docker_config;         // a config.json path; "" = $DOCKER_CONFIG/config.json or
                                     // ~/.docker/config.json
  std::string credentials_dir;       // "" = no credentials dir
  Getenv getenv = process_getenv();  // DOCKER_CONFIG, HOME, REGISTRY_AUTH_FILE
  HelperRunner run_helper = process_helper_runner();
};

// The chain described at the top of this file. Files that do not exist are
// skipped silently (an explicitly configured credentials dir that does not
// exist is Error(Config)).
Keychain default_keychain(const KeychainOptions& options);

}  // namespace archfit::registry
