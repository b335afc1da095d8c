// How images are resolved: the `resolve:` section of the configuration.
#pragma once

#include <chrono>
#include <map>
#include <string>
#include <vector>

#include <archfit/image/platform_set.hpp>

namespace archfit::resolve {

// How the resolver works. What placement does with an image it could not
// resolve (resolve.onUnresolved, resolve.fallbackPlatforms) is placement's
// (placement::Config), although the configuration file keeps those keys here.
struct Settings {
  // How long a tag -> digest answer is trusted, by imagePullPolicy
  // ("IfNotPresent", "Always", and "default" for the rest). 0 = always ask.
  std::map<std::string, std::chrono::seconds> tag_ttl = {
      {"IfNotPresent", std::chrono::hours(24 * 7)},
      {"Always", std::chrono::seconds(0)},
      {"default", std::chrono::hours(24)},
  };
  int concurrency = 16;
  std::chrono::milliseconds timeout = std::chrono::seconds(30);
  std::map<std::string, std::vector<std::string>> mirrors;  // registry -> mirror hosts
  std::vector<std::string> insecure_registries;             // plain http allowed
  std::string ca_file;
  std::string docker_config;    // "" = $DOCKER_CONFIG/config.json or ~/.docker/config.json
  std::string credentials_dir;  // one <registry>.toml per registry
};

}  // namespace archfit::resolve
