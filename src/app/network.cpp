#include <algorithm>
#include <mutex>

#include <archfit/app/network.hpp>
#include <archfit/base/untrusted.hpp>

namespace archfit::app {

registry::Client& Network::client() {
  if (client_) return *client_;
  registry::KeychainOptions keys;
  keys.docker_config = settings_.docker_config;
  keys.credentials_dir = settings_.credentials_dir;
  keychain_ = std::make_unique<registry::Keychain>(registry::default_keychain(keys));
  transport_ = std::make_unique<registry::CurlTransport>();
  registry::ClientOptions options;
  options.insecure_registries = settings_.insecure_registries;
  options.mirrors = settings_.mirrors;
  options.ca_file = settings_.ca_file;
  options.timeout = settings_.timeout;
  options.concurrency = static_cast<std::size_t>(std::max(1, settings_.concurrency));
  options.multiplexed_concurrency = registry::multiplexed_concurrency(options.concurrency);
  if (log_ != nullptr) {
    options.log = [log = log_](const std::string& line) {
      static std::mutex mutex;
      std::lock_guard<std::mutex> hold(mutex);
      *log << "archfit: " << for_terminal(Untrusted(line)) << '\n';
    };
  }
  client_ = std::make_unique<registry::Client>(*transport_, *keychain_, std::move(options));
  return *client_;
}

}  // namespace archfit::app
