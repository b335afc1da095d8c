// The process environment behind a seam, and the table of ARCHFIT_*
// variables: with the flags (registered in src/cli/flags.cpp), the ways a run
// overrides the configuration file.
#include <cstdlib>

#include <archfit/config/loader.hpp>

namespace archfit::config {

Environment process_environment() {
  return [](const std::string& name) -> std::optional<std::string> {
    const char* value = std::getenv(name.c_str());
    if (!value) return std::nullopt;
    return std::string(value);
  };
}

Environment fixed_environment(std::map<std::string, std::string> variables) {
  return [variables = std::move(variables)](const std::string& name) -> std::optional<std::string> {
    auto it = variables.find(name);
    if (it == variables.end()) return std::nullopt;
    return it->second;
  };
}

const std::vector<EnvironmentVariable>& environment_variables() {
  static const std::vector<EnvironmentVariable> variables = {
      {"ARCHFIT_CONFIG", "the configuration file", "--config"},
      {"ARCHFIT_PLATFORMS", "clusterPlatforms", "--platforms"},
      {"ARCHFIT_MODE", "placement.mode", ""},
      {"ARCHFIT_ON_UNRESOLVED", "resolve.onUnresolved", ""},
      {"ARCHFIT_CONCURRENCY", "resolve.concurrency", "--concurrency"},
      {"ARCHFIT_TIMEOUT", "resolve.timeout", "--timeout"},
      {"ARCHFIT_LOCK", "the lock file", "--lock"},
      {"ARCHFIT_CACHE_DIR", "the cache directory", "--cache-dir"},
      {"ARCHFIT_OFFLINE", "offline mode", "--offline"},
  };
  return variables;
}

}  // namespace archfit::config
