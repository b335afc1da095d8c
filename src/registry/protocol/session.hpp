// The authenticated request loop under Client: per-host ping state, bearer
// tokens, retries and redirects. Everything here is shared by the threads of
// a run; each host is pinged once and each token fetched once per scope.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <archfit/registry/protocol/challenge.hpp>
#include <archfit/registry/protocol/client.hpp>
#include <archfit/registry/protocol/error.hpp>

#include "registry/protocol/gates.hpp"
#include "registry/transport/destinations.hpp"

namespace archfit::registry {

using Deadline = std::chrono::steady_clock::time_point;

// One registry host as archfit talks to it.
struct Endpoint {
  std::string registry;  // the name credentials are looked up by: "docker.io", a mirror host
  std::string host;      // where requests go: "registry-1.docker.io"
  bool insecure = false;

  std::mutex mutex;  // guards what follows; held during the ping
  bool pinged = false;
  std::string scheme = "https";
  std::vector<Challenge> challenges;
  std::optional<RegistryProblem> ping_problem;
  // Scopes a registry asked for beyond "repository:<repo>:pull" through an
  // insufficient_scope answer, by repository; later requests ask for them up
  // front instead of being refused again.
  std::map<std::string, std::set<std::string>> extra_scopes;
};

// Who is asking: the image (for messages) and the credentials to use.
struct Caller {
  std::string image;
  std::optional<Credential> credential;
  std::string credential_name() const { return credential ? credential->source : "none"; }
};

class Session {
 public:
  Session(Transport& transport, const ClientOptions& options, ClientStats& stats);

  Endpoint& endpoint(const std::string& registry, const std::string& host);

  // Sends `request` (its url a path such as "/v2/<repo>/manifests/<ref>") to
  // the endpoint, authorized to pull `repository`. Returns any HTTP answer;
  // throws RegistryError when none came after the retries, or when the token
  // server refused.
  HttpResponse send(Endpoint& ep, const std::string& repository, HttpRequest request,
                    const Caller& caller, Deadline deadline);

  // Turns a non-success answer into an error naming the image, host, status,
  // OCI codes and credentials.
  [[noreturn]] void fail_status(const Endpoint& ep, const HttpResponse& response,
                                const Caller& caller, const std::string& what) const;

 private:
  struct TokenSlot {
    std::mutex mutex;
    std::string token;
    std::chrono::steady_clock::time_point expires{};
  };

  void ping(Endpoint& ep, const Caller& caller, Deadline deadline);
  std::optional<std::string> authorization(Endpoint& ep, const std::set<std::string>& scopes,
                                           const Caller& caller, Deadline deadline, bool refresh);
  std::string token(Endpoint& ep, const Challenge& bearer, const std::set<std::string>& scopes,
                    const Caller& caller, Deadline deadline, bool refresh);
  // One request with retries for 429, 5xx and transport failures; no auth,
  // no redirects. Throws RegistryError when no answer came.
  // A request that timed out is not tried again.
  HttpResponse perform(HttpRequest request, const std::string& host, const Caller& caller,
                       Deadline deadline, const std::string& what);
  // Where the endpoint's requests go, for the rules of destinations.hpp.
  static Destination origin(const Endpoint& ep);
  void configure_tls(HttpRequest& request, const std::string& host) const;
  bool is_insecure(const std::string& host) const;
  void log(const HttpRequest& request, const HttpResponse& response,
           std::chrono::steady_clock::duration took) const;

  Transport& transport_;
  const ClientOptions& options_;
  ClientStats& stats_;
  std::mutex mutex_;  // guards the maps (not their values)
  std::map<std::string, std::unique_ptr<Endpoint>> endpoints_;
  std::map<std::string, std::unique_ptr<TokenSlot>> tokens_;
  HostGates gates_;
};

}  // namespace archfit::registry
