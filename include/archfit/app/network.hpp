// The registry side of a session, made only when an image needs it: the
// credentials keychain, the libcurl transport and the client. A run whose
// images are all in the lock file or the cache never reads a docker config
// or opens a connection.
#pragma once

#include <memory>
#include <ostream>

#include <archfit/registry/credentials/keychain.hpp>
#include <archfit/registry/protocol/client.hpp>
#include <archfit/registry/transport/curl_transport.hpp>
#include <archfit/resolve/settings.hpp>

namespace archfit::app {

class Network {
 public:
  // With `log`, every request is logged there (-v).
  Network(resolve::Settings settings, std::ostream* log)
      : settings_(std::move(settings)), log_(log) {}

  // Throws Error(Config) for credentials that cannot be read.
  registry::Client& client();

 private:
  resolve::Settings settings_;
  std::ostream* log_;
  std::unique_ptr<registry::Keychain> keychain_;
  std::unique_ptr<registry::CurlTransport> transport_;
  std::unique_ptr<registry::Client> client_;
};

}  // namespace archfit::app
