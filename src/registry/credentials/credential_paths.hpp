// Where credential files live and how messages name them: the home
// directory is shown as "~", so that "~/.docker/config.json" reads the same
// on every machine and a log does not reveal user names.
#pragma once

#include <optional>
#include <string>

#include <archfit/registry/credentials/keychain.hpp>

namespace archfit::registry {

// `path` with a leading $HOME replaced by "~".
std::string display_path(const std::string& path, const Getenv& getenv);

// The docker config to read: `configured` when set, else
// $DOCKER_CONFIG/config.json, else $HOME/.docker/config.json; nullopt when
// none can be named (no HOME).
std::optional<std::string> docker_config_path(const std::string& configured, const Getenv& getenv);

}  // namespace archfit::registry
