#include <cstdlib>

#include <archfit/registry/credentials/keychain.hpp>

#include "registry/credentials/credential_paths.hpp"
#include "registry/credentials/credentials_dir.hpp"
#include "registry/credentials/docker_config.hpp"

namespace archfit::registry {

void Keychain::add(std::unique_ptr<CredentialSource> source) {
  sources_.push_back(std::move(source));
}

std::optional<Credential> Keychain::find(std::string_view registry,
                                         std::string_view repository) const {
  for (const auto& source : sources_) {
    std::optional<Credential> found = source->find(registry, repository);
    if (found && !found->empty()) {
      if (found->source.empty()) found->source = source->name();
      return found;
    }
  }
  return std::nullopt;
}

std::vector<std::string> Keychain::source_names() const {
  std::vector<std::string> names;
  for (const auto& source : sources_)
    names.push_back(source->name());
  return names;
}

Keychain default_keychain(const KeychainOptions& options) {
  Keychain chain;
  if (!options.credentials_dir.empty()) {
    chain.add(make_credentials_dir_source(options.credentials_dir,
                                          display_path(options.credentials_dir, options.getenv)));
  }
  if (std::optional<std::string> auth_file = options.getenv("REGISTRY_AUTH_FILE")) {
    chain.add(make_auths_file_source({*auth_file, display_path(*auth_file, options.getenv),
                                      "$REGISTRY_AUTH_FILE", options.run_helper}));
  }
  if (std::optional<std::string> config =
          docker_config_path(options.docker_config, options.getenv)) {
    chain.add(make_auths_file_source(
        {*config, display_path(*config, options.getenv), "", options.run_helper}));
  }
  return chain;
}

}  // namespace archfit::registry
