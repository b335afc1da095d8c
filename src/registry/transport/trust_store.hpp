// Where the certificates that TLS trusts are: the file and directory handed
// to libcurl (CURLOPT_CAINFO, CURLOPT_CAPATH).
//
// In order: resolve.caFile (the request's ca_file); SSL_CERT_FILE and
// SSL_CERT_DIR, as OpenSSL and Go read them; the bundle libcurl was built
// with, when it exists (Debian's libcurl); else the first bundle of the
// common distributions that exists, then /etc/ssl/certs as a directory. A
// static release executable has no built-in bundle, so it is the probe that
// makes HTTPS work on Debian, Ubuntu, RHEL, Fedora, Alpine and SUSE alike.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include <archfit/base/environment.hpp>

namespace archfit::registry {

struct TrustStore {
  std::string file;       // "" = libcurl's default
  std::string directory;  // "" = libcurl's default
};

// The bundles the probe looks for, most common first.
extern const char* const kCaBundles[6];

// `built_in` is libcurl's own bundle (curl_version_info's cainfo), or "".
TrustStore find_trust_store(const std::string& configured, const Getenv& getenv,
                            std::string_view built_in,
                            const std::function<bool(const std::string&)>& exists);

}  // namespace archfit::registry
