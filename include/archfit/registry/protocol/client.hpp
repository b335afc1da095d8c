// The OCI distribution client: which platforms an image is published for.
//
// The handshake for one image, in order:
//  1. Ping: GET /v2/ once per registry host (https; for insecureRegistries
//     https without verification, then plain http). 200 means anonymous
//     access; 401 carries the challenges (Bearer realm/service, or Basic).
//  2. Credentials: matched pull secrets first, then the keychain; none means
//     anonymous.
//  3. Authorization: Basic as is; Bearer through a token from the realm
//     (GET with Basic credentials, or POST with a refresh token that falls
//     back to GET on 404), cached per host, scope and credentials until
//     expires_in. A 401 on a request refreshes the token once, adding the
//     scope an insufficient_scope challenge asks for.
//  4. A tag, when the caller may know its digest (its cache): HEAD the tag for
//     its digest (Docker Hub does not count HEADs); a digest the caller knows
//     costs nothing more. Otherwise, or when the HEAD is refused or carries no
//     digest: GET the tag's manifest, hashed, and checked against the
//     Docker-Content-Digest the registry sends.
//  5. GET the manifest by digest when step 4 left it unfetched, and verify
//     its sha256 or sha512. An index gives the
//     platforms of its entries (attestations skipped, nested indexes
//     followed, entries without a platform read from their config); a
//     single manifest gives its config blob's os/architecture/variant.
// Every request retries 429, 5xx and timeouts (Retry-After honoured) a bounded
// number of times; redirects are followed by hand so that Authorization never
// goes to another origin; bodies are capped (manifests 4 MiB, configs 1 MiB,
// error bodies 64 KiB). Mirrors of a registry are tried before it.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <archfit/image/platform_set.hpp>
#include <archfit/image/reference.hpp>
#include <archfit/registry/credentials/credential.hpp>
#include <archfit/registry/credentials/keychain.hpp>
#include <archfit/registry/transport/http.hpp>
#include <archfit/registry/transport/retry.hpp>

namespace archfit::registry {

using SteadyClock = std::function<std::chrono::steady_clock::time_point()>;
// Receives one line per request for -v; URLs have their query removed and no
// header is ever passed.
using Logger = std::function<void(const std::string& line)>;

struct ClientOptions {
  std::vector<std::string> insecure_registries;             // host[:port] where TLS is not verified
  std::map<std::string, std::vector<std::string>> mirrors;  // registry -> mirror hosts
  std::string ca_file;
  std::chrono::milliseconds timeout{30000};  // each request; an image gets 4x in all
  RetryPolicy retry;
  Sleeper sleep = real_sleeper();
  SteadyClock clock = [] { return std::chrono::steady_clock::now(); };
  Logger log;  // nullptr = silent
  // Requests in flight to one host: over HTTP/1.1, each a connection of its
  // own; over HTTP/2, streams sharing one (docs/registry.md, "Connections").
  std::size_t concurrency = 16;
  std::size_t multiplexed_concurrency = 100;
};

// The requests in flight to a host over HTTP/2 for resolve.concurrency `n`:
// 8n, at most the 100 streams libcurl puts on one connection.
constexpr std::size_t multiplexed_concurrency(std::size_t n) {
  return std::min<std::size_t>(8 * n, 100);
}

struct ClientStats {
  std::atomic<std::uint64_t> requests{0};
  std::atomic<std::uint64_t> heads{0};
  std::atomic<std::uint64_t> gets{0};
  std::atomic<std::uint64_t> posts{0};
  std::atomic<std::uint64_t> bytes{0};  // response bodies
};

struct Resolved {
  std::string digest;      // of the manifest or index the reference names
  std::string media_type;  // "" when the platforms were already known
  image::PlatformSet platforms;
  bool known = false;  // the platforms came from the caller's KnownDigest
};

// Platforms the caller already has for a digest (its cache); nullopt = ask.
// Passing one makes a tag cost a HEAD first; pass none when nothing can be
// known (an empty cache), and the tag's manifest is fetched straight away.
using KnownDigest = std::function<std::optional<image::PlatformSet>(const std::string& digest)>;

class Client {
 public:
  Client(Transport& transport, const Keychain& keychain, ClientOptions options);
  ~Client();
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  // Safe to call from several threads. `extra` credentials (matched pull
  // secrets) are tried before the keychain. Throws RegistryError, or
  // Error(Resolution) for content archfit cannot use (schema 1, artifacts).
  Resolved resolve(const image::Reference& ref, const std::vector<Credential>& extra,
                   const KnownDigest& known);

  const ClientStats& stats() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace archfit::registry
