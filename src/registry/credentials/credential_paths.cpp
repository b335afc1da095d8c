#include "registry/credentials/credential_paths.hpp"

namespace archfit::registry {

std::string display_path(const std::string& path, const Getenv& getenv) {
  std::optional<std::string> home = getenv("HOME");
  if (!home) return path;
  std::string prefix = *home;
  while (prefix.size() > 1 && prefix.back() == '/')
    prefix.pop_back();
  if (prefix == "/") return path;
  if (path == prefix) return "~";
  if (path.size() > prefix.size() && path.starts_with(prefix) && path[prefix.size()] == '/') {
    return "~" + path.substr(prefix.size());
  }
  return path;
}

std::optional<std::string> docker_config_path(const std::string& configured, const Getenv& getenv) {
  if (!configured.empty()) return configured;
  if (std::optional<std::string> dir = getenv("DOCKER_CONFIG")) {
    while (dir->size() > 1 && dir->back() == '/')
      dir->pop_back();
    return *dir == "/" ? "/config.json" : *dir + "/config.json";
  }
  if (std::optional<std::string> home = getenv("HOME")) return *home + "/.docker/config.json";
  return std::nullopt;
}

}  // namespace archfit::registry
