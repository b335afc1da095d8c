// A directory with one file per registry, the way CI systems mount secrets:
// <dir>/<registry>.toml ("ghcr.io.toml", "docker.io.toml",
// "localhost:5000.toml") holding
//   user = "robot"
//   secret = "..."
#pragma once

#include <memory>
#include <string>

#include <archfit/registry/credentials/keychain.hpp>

namespace archfit::registry {

// `display` is how messages name the directory ("~/creds"). Throws
// Error(Config) when `dir` is not a directory. A registry without a file has
// no credentials here; a file that is not valid is Error(Config) at its line
// and column.
std::unique_ptr<CredentialSource> make_credentials_dir_source(const std::string& dir,
                                                              const std::string& display);

}  // namespace archfit::registry
