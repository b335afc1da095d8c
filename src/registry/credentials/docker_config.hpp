// A credential source over one file in docker's config.json format: docker's
// own config, or podman's auth.json ($REGISTRY_AUTH_FILE), which shares it.
// For a registry it asks, in order, the helper named for that registry in
// credHelpers, the default helper credsStore, and the file's auths; a helper
// that answers "credentials not found" passes the question on.
#pragma once

#include <memory>
#include <string>

#include <archfit/registry/credentials/keychain.hpp>

namespace archfit::registry {

struct AuthsFileOptions {
  std::string path;     // the file; one that does not exist holds no credentials
  std::string display;  // how messages name it: "~/.docker/config.json"
  std::string origin;   // what pointed at it, for name(): "$REGISTRY_AUTH_FILE"; "" for none
  HelperRunner run_helper;
};

// The file is read on the first find(), once; an unreadable or invalid file is
// Error(Config) naming it (with line and column for JSON syntax errors), from
// that find() on.
std::unique_ptr<CredentialSource> make_auths_file_source(AuthsFileOptions options);

}  // namespace archfit::registry
