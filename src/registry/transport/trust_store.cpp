#include "registry/transport/trust_store.hpp"

namespace archfit::registry {

const char* const kCaBundles[6] = {
    "/etc/ssl/certs/ca-certificates.crt",                 // Debian, Ubuntu, Alpine, Arch
    "/etc/pki/tls/certs/ca-bundle.crt",                   // RHEL, Fedora, CentOS
    "/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem",  // RHEL 7 and later
    "/etc/ssl/ca-bundle.pem",                             // openSUSE, SLES
    "/var/lib/ca-certificates/ca-bundle.pem",             // SUSE's generated bundle
    "/etc/ssl/cert.pem",                                  // Alpine, the BSDs
};

TrustStore find_trust_store(const std::string& configured, const Getenv& getenv,
                            std::string_view built_in,
                            const std::function<bool(const std::string&)>& exists) {
  TrustStore store;
  std::optional<std::string> env_file = getenv("SSL_CERT_FILE");
  std::optional<std::string> env_dir = getenv("SSL_CERT_DIR");
  if (!configured.empty()) {
    store.file = configured;
  } else if (env_file) {
    store.file = *env_file;
  }
  if (env_dir) store.directory = *env_dir;
  if (!store.file.empty() || !store.directory.empty()) return store;
  if (!built_in.empty() && exists(std::string(built_in))) return store;
  for (const char* bundle : kCaBundles) {
    if (exists(bundle)) {
      store.file = bundle;
      return store;
    }
  }
  if (exists("/etc/ssl/certs")) store.directory = "/etc/ssl/certs";
  return store;
}

}  // namespace archfit::registry
