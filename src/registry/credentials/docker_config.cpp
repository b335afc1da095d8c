#include "registry/credentials/docker_config.hpp"

#include <exception>
#include <filesystem>
#include <map>
#include <mutex>
#include <system_error>

#include <archfit/base/error.hpp>
#include <archfit/base/file.hpp>

#include "registry/credentials/auths_json.hpp"
#include "registry/credentials/helper_client.hpp"
#include "registry/credentials/registry_key.hpp"

namespace archfit::registry {

namespace {

// How well an auths key fits a repository: a key with a path ("quay.io/org",
// as podman writes them) that is a prefix of the repository first, longest
// first; then plain host keys; then keys whose path does not fit, because
// docker ignores key paths and uses them for the whole host.
std::size_t rank(const RegistryKey& key, std::string_view repository) {
  if (key.path.empty()) return 1'000'000;
  bool fits = repository == key.path ||
              (repository.starts_with(key.path) && repository[key.path.size()] == '/');
  return fits ? 1'000'000 - key.path.size() : 2'000'000;
}

class AuthsFileSource : public CredentialSource {
 public:
  explicit AuthsFileSource(AuthsFileOptions options) : options_(std::move(options)) {}

  std::string name() const override {
    return options_.origin.empty() ? options_.display
                                   : options_.display + " (" + options_.origin + ")";
  }

  std::optional<Credential> find(std::string_view registry,
                                 std::string_view repository) const override {
    const AuthsJson& config = load();
    RegistryKey target = parse_registry_key(registry);
    std::string server = target.host == "docker.io" && target.port.empty()
                             ? std::string(kDockerHubServerUrl)
                             : target.registry();
    if (const std::string* helper = helper_for(config, target)) {
      if (auto c = ask(*helper, server, "credHelpers")) return c;
    }
    if (!config.creds_store.empty()) {
      if (auto c = ask(config.creds_store, server, "credsStore")) return c;
    }
    return from_auths(config, target, repository);
  }

 private:
  const AuthsJson& load() const {
    std::call_once(loaded_, [this] {
      try {
        std::error_code ec;
        if (!std::filesystem::exists(options_.path, ec)) return;
        std::string text;
        try {
          text =
              read_file(options_.path, ReadLimit{kMaxSettingsBytes, "a registry credentials file"});
        } catch (const Error& e) {
          // "cannot read <path>: <reason>", with the path as messages show it.
          std::string message = e.message();
          std::string said = "cannot read " + options_.path;
          if (message.starts_with(said)) {
            message = "cannot read " + options_.display + message.substr(said.size());
          }
          fail(ErrorKind::Config, message);
        }
        AuthsJsonFormat format;
        format.file = options_.display;
        config_ = parse_auths_json(text, format);
      } catch (...) {
        load_error_ = std::current_exception();
      }
    });
    if (load_error_) std::rethrow_exception(load_error_);
    return config_;
  }

  static const std::string* helper_for(const AuthsJson& config, const RegistryKey& target) {
    for (const auto& [key, helper] : config.cred_helpers) {
      if (!helper.empty() && parse_registry_key(key).registry() == target.registry()) {
        return &helper;
      }
    }
    return nullptr;
  }

  // Helpers are asked once per server and run one at a time: a helper may
  // prompt (a GPG passphrase for pass), and one prompt is enough.
  std::optional<Credential> ask(const std::string& helper, const std::string& server,
                                const char* setting) const {
    std::lock_guard<std::mutex> lock(helpers_mutex_);
    std::string label = helper_program(helper) + " (" + setting + " in " + options_.display + ")";
    auto [it, fresh] = answers_.try_emplace(label + '\n' + server);
    Answer& answer = it->second;
    if (fresh) {
      try {
        answer.credential = ask_helper(options_.run_helper, helper, server, label);
      } catch (...) {
        answer.error = std::current_exception();
      }
    }
    if (answer.error) std::rethrow_exception(answer.error);
    return answer.credential;
  }

  std::optional<Credential> from_auths(const AuthsJson& config, const RegistryKey& target,
                                       std::string_view repository) const {
    const AuthEntry* best = nullptr;
    std::size_t best_rank = 0;
    for (const AuthEntry& entry : config.auths) {
      RegistryKey key = parse_registry_key(entry.key);
      if (key.registry() != target.registry() || entry.credential.empty()) continue;
      std::size_t r = rank(key, repository);
      if (!best || r < best_rank) {
        best = &entry;
        best_rank = r;
      }
    }
    if (!best) return std::nullopt;
    Credential c = best->credential;
    c.source = options_.display + " auths";
    return c;
  }

  struct Answer {
    std::optional<Credential> credential;
    std::exception_ptr error;
  };

  AuthsFileOptions options_;
  mutable std::once_flag loaded_;
  mutable AuthsJson config_;
  mutable std::exception_ptr load_error_;
  mutable std::mutex helpers_mutex_;
  mutable std::map<std::string, Answer> answers_;
};

}  // namespace

std::unique_ptr<CredentialSource> make_auths_file_source(AuthsFileOptions options) {
  return std::make_unique<AuthsFileSource>(std::move(options));
}

}  // namespace archfit::registry
