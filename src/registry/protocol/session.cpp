#include "registry/protocol/session.hpp"

#include <algorithm>

#include <archfit/base/base64.hpp>
#include <archfit/base/text.hpp>

#include "registry/protocol/token.hpp"
#include "registry/transport/destinations.hpp"
#include "registry/transport/url.hpp"

namespace archfit::registry {

namespace {

bool is_redirect(long status) {
  return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
}

std::string status_hint(const HttpResponse& r) {
  switch (r.status) {
    case 401:
      return "authentication required, or the repository does not exist (some registries "
             "answer 401 for both)";
    case 403:
      return "access denied";
    case 404:
      return "not found: check the repository name and the tag or digest";
    case 429:
      return "too many requests";
    default:
      return r.status >= 500 ? "the registry failed" : "";
  }
}

}  // namespace

Destination Session::origin(const Endpoint& ep) {
  // The endpoint's host is a registry name or host[:port], so this parses.
  return destination_of(ep.scheme + "://" + ep.host).value_or(Destination{ep.scheme, ep.host, 0});
}

Session::Session(Transport& transport, const ClientOptions& options, ClientStats& stats)
    : transport_(transport),
      options_(options),
      stats_(stats),
      gates_(options.concurrency, options.multiplexed_concurrency) {}

Endpoint& Session::endpoint(const std::string& registry, const std::string& host) {
  std::lock_guard<std::mutex> hold(mutex_);
  std::unique_ptr<Endpoint>& ep = endpoints_[registry + "\n" + host];
  if (!ep) {
    ep = std::make_unique<Endpoint>();
    ep->registry = registry;
    ep->host = host;
    ep->insecure = is_insecure(registry) || is_insecure(host);
  }
  return *ep;
}

bool Session::is_insecure(const std::string& host) const {
  const auto& list = options_.insecure_registries;
  return std::find(list.begin(), list.end(), host) != list.end();
}

void Session::configure_tls(HttpRequest& request, const std::string& host) const {
  request.verify_tls = !is_insecure(host);
  request.ca_file = options_.ca_file;
}

void Session::log(const HttpRequest& request, const HttpResponse& response,
                  std::chrono::steady_clock::duration took) const {
  if (!options_.log) return;
  std::string outcome =
      response.ok() ? std::to_string(response.status) : "failed: " + response.failure_message;
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(took).count();
  options_.log(request.method + " " + printable(redact_url(request.url)) + " -> " +
               printable(outcome) + " (" + std::to_string(ms) + " ms)");
}

HttpResponse Session::perform(HttpRequest request, const std::string& host, const Caller& caller,
                              Deadline deadline, const std::string& what) {
  HttpResponse response;
  int attempt = 1;
  for (;; ++attempt) {
    auto now = options_.clock();
    if (now >= deadline) {
      response = HttpResponse{};
      response.failure = Failure::Timeout;
      response.failure_message = "gave up: the time for this image ran out";
      break;
    }
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now);
    request.timeout = std::min(options_.timeout, left);
    request.connect_timeout = std::min(request.timeout, std::chrono::milliseconds(10000));
    {
      HostGates::Slot slot = gates_.enter(host);
      response = transport_.perform(request);
    }
    if (response.multiplexed) gates_.widen(host);
    auto took = options_.clock() - now;
    ++stats_.requests;
    if (request.method == "HEAD") ++stats_.heads;
    if (request.method == "GET") ++stats_.gets;
    if (request.method == "POST") ++stats_.posts;
    stats_.bytes += response.body.size();
    log(request, response, took);

    if (!is_retryable(response) || attempt >= options_.retry.attempts) break;
    // A request that got no answer in resolve.timeout is not sent again: a
    // registry that accepts connections and never answers would otherwise
    // cost every try's timeout (docs/registry.md, "Time limits").
    if (response.failure == Failure::Timeout) break;
    std::optional<std::chrono::milliseconds> after;
    if (auto header = response.header("retry-after")) {
      after = parse_retry_after(*header, std::chrono::system_clock::now());
    }
    if (after && *after > options_.retry.max_delay) break;  // not worth waiting for here
    auto delay = retry_delay(options_.retry, attempt, after);
    if (options_.clock() + delay >= deadline) break;
    options_.sleep(delay);
  }
  if (!response.ok()) {
    RegistryProblem p;
    p.image = caller.image;
    p.host = host;
    p.failure = response.failure;
    p.what = what;
    p.detail = response.failure_message;
    if (attempt > 1) p.detail += " (" + std::to_string(attempt) + " tries)";
    if (response.failure == Failure::Tls) {
      p.detail +=
          "; for a registry without trusted TLS set resolve.caFile, or list it in "
          "resolve.insecureRegistries";
    }
    p.credentials = caller.credential_name();
    p.retryable = is_retryable(response);
    throw RegistryError(std::move(p));
  }
  return response;
}

void Session::ping(Endpoint& ep, const Caller& caller, Deadline deadline) {
  std::lock_guard<std::mutex> hold(ep.mutex);
  if (ep.pinged) {
    if (ep.ping_problem) {
      RegistryProblem p = *ep.ping_problem;
      p.image = caller.image;
      throw RegistryError(std::move(p));
    }
    return;
  }
  // An insecure registry may speak https with any certificate, or plain http.
  std::vector<std::string> schemes = {"https"};
  if (ep.insecure) schemes.push_back("http");
  for (std::size_t i = 0; i < schemes.size(); ++i) {
    HttpRequest request;
    request.url = schemes[i] + "://" + ep.host + "/v2/";
    configure_tls(request, ep.host);
    request.allow_link_local = true;  // the registry's own host
    if (ep.insecure) request.verify_tls = false;
    bool probe = i + 1 < schemes.size();
    try {
      // A plain http server may stay silent on a TLS hello until the
      // connection times out: the https probe is not tried again after a
      // timeout, http is tried instead.
      HttpResponse r = perform(request, ep.host, caller, deadline, "ping");
      ep.scheme = schemes[i];
      if (r.status == 401) ep.challenges = parse_challenges(r.headers_named("www-authenticate"));
      ep.pinged = true;
      return;
    } catch (const RegistryError& e) {
      Failure f = e.problem().failure;
      if (probe && (f == Failure::Tls || f == Failure::Other || f == Failure::Truncated ||
                    f == Failure::Timeout)) {
        continue;  // not https; try http
      }
      ep.pinged = true;
      ep.ping_problem = e.problem();
      throw;
    }
  }
}

std::optional<std::string> Session::authorization(Endpoint& ep, const std::set<std::string>& scopes,
                                                  const Caller& caller, Deadline deadline,
                                                  bool refresh) {
  std::vector<Challenge> challenges;
  {
    std::lock_guard<std::mutex> hold(ep.mutex);
    challenges = ep.challenges;
  }
  const std::optional<Credential>& cred = caller.credential;
  if (const Challenge* bearer = find_challenge(challenges, "bearer")) {
    if (cred && !cred->registry_token.empty()) {
      if (std::string why = unusable_token(cred->registry_token); !why.empty()) {
        RegistryProblem p;
        p.image = caller.image;
        p.host = ep.host;
        p.failure = Failure::Refused;
        p.detail = "the registry token of the credentials " + why;
        p.credentials = caller.credential_name();
        throw RegistryError(std::move(p));
      }
      return "Bearer " + cred->registry_token;
    }
    return "Bearer " + token(ep, *bearer, scopes, caller, deadline, refresh);
  }
  if (find_challenge(challenges, "basic") && cred && !cred->username.empty()) {
    return "Basic " + base64_encode(cred->username + ":" + cred->password);
  }
  return std::nullopt;
}

std::string Session::token(Endpoint& ep, const Challenge& bearer,
                           const std::set<std::string>& scopes, const Caller& caller,
                           Deadline deadline, bool refresh) {
  std::string key = ep.host + "\n" + bearer.param("realm") + "\n" + caller.credential_name();
  if (caller.credential) key += "\n" + caller.credential->username;
  for (const std::string& s : scopes)
    key += "\n" + s;
  TokenSlot* slot = nullptr;
  {
    std::lock_guard<std::mutex> hold(mutex_);
    std::unique_ptr<TokenSlot>& owned = tokens_[key];
    if (!owned) owned = std::make_unique<TokenSlot>();
    slot = owned.get();
  }
  std::lock_guard<std::mutex> hold(slot->mutex);
  auto now = options_.clock();
  if (!refresh && !slot->token.empty() && now < slot->expires) return slot->token;
  Destination registry = origin(ep);
  TokenRequest request{bearer, scopes, caller.credential, registry};
  TokenAnswer answer = fetch_token(
      request,
      [&](HttpRequest r, const std::string& host, const std::string& what) {
        configure_tls(r, host);
        r.allow_link_local = host == ep.host;
        return perform(std::move(r), host, caller, deadline, what);
      },
      caller.image);
  // Renew a little early: the token must not expire between check and use.
  auto margin = std::min(std::chrono::seconds(10), answer.expires_in / 10);
  slot->token = std::move(answer.token);
  slot->expires = options_.clock() + answer.expires_in - margin;
  return slot->token;
}

HttpResponse Session::send(Endpoint& ep, const std::string& repository, HttpRequest request,
                           const Caller& caller, Deadline deadline) {
  ping(ep, caller, deadline);
  std::set<std::string> scopes = {"repository:" + repository + ":pull"};
  {
    std::lock_guard<std::mutex> hold(ep.mutex);
    if (auto it = ep.extra_scopes.find(repository); it != ep.extra_scopes.end()) {
      scopes.insert(it->second.begin(), it->second.end());
    }
  }
  std::string url = ep.scheme + "://" + ep.host + request.url;
  const std::string start = origin_of(url);
  const std::string what = request.method == "HEAD" ? "HEAD manifest" : "";
  bool auth_retried = false;
  bool refresh = false;
  bool send_auth = true;
  int redirects = 0;
  for (;;) {
    HttpRequest r = request;
    r.url = url;
    configure_tls(r, host_of(url));
    r.allow_link_local = host_of(url) == ep.host;
    if (send_auth) {
      if (auto header = authorization(ep, scopes, caller, deadline, refresh)) {
        r.headers.emplace_back("Authorization", *header);
      }
    }
    refresh = false;
    HttpResponse response = perform(r, host_of(url), caller, deadline, what);

    if (response.status == 401 && send_auth && !auth_retried) {
      auth_retried = true;
      std::vector<Challenge> fresh = parse_challenges(response.headers_named("www-authenticate"));
      std::set<std::string> added;
      if (const Challenge* b = find_challenge(fresh, "bearer");
          b && b->param("error") == "insufficient_scope") {
        const std::string wanted = b->param("scope");
        for (std::string_view s : split(wanted, ' ')) {
          if (!s.empty() && !scopes.contains(std::string(s))) added.emplace(s);
        }
      }
      bool usable = false;
      {
        std::lock_guard<std::mutex> hold(ep.mutex);
        if (!added.empty()) {
          scopes.insert(added.begin(), added.end());
          ep.extra_scopes[repository].insert(added.begin(), added.end());
        }
        // gcr.io answers 401 without a challenge: the ping's one still holds.
        if (!fresh.empty()) ep.challenges = fresh;
        usable = find_challenge(ep.challenges, "bearer") != nullptr ||
                 (find_challenge(ep.challenges, "basic") != nullptr && caller.credential);
      }
      if (usable) {
        // A token for more scopes is a different token; the same scopes
        // refused means the cached token is no longer good.
        refresh = added.empty();
        continue;
      }
    }
    if (is_redirect(response.status)) {
      if (auto location = response.header("location")) {
        if (++redirects > 5) {
          RegistryProblem p;
          p.image = caller.image;
          p.host = host_of(url);
          p.detail = "more than 5 redirects";
          p.credentials = caller.credential_name();
          throw RegistryError(std::move(p));
        }
        url = resolve_location(url, std::string(*location));
        std::optional<Destination> target = destination_of(url);
        std::string why = target ? refuse_request(origin(ep), *target, "the redirect to")
                                 : "the redirect names " + quoted(url, 100) +
                                       ", which is not an http or https URL";
        if (!why.empty()) {
          RegistryProblem p;
          p.image = caller.image;
          p.host = host_of(r.url);
          p.failure = Failure::Refused;
          p.detail = why;
          p.credentials = caller.credential_name();
          throw RegistryError(std::move(p));
        }
        // Storage behind a redirect must not see the registry's credentials.
        if (origin_of(url) != start) send_auth = false;
        if (response.status == 303) request.method = "GET";
        continue;
      }
    }
    return response;
  }
}

void Session::fail_status(const Endpoint& ep, const HttpResponse& response, const Caller& caller,
                          const std::string& what) const {
  RegistryProblem p;
  p.image = caller.image;
  p.host = ep.host;
  p.status = response.status;
  p.errors = parse_oci_errors(response.body);
  p.what = what;
  if (p.errors.empty() || p.errors.front().message.empty()) p.detail = status_hint(response);
  if (auto after = response.header("retry-after")) {
    p.detail += (p.detail.empty() ? "" : "; ") + std::string("the registry asks to retry after ") +
                std::string(*after);
  }
  p.credentials = caller.credential_name();
  p.retryable = is_retryable(response);
  throw RegistryError(std::move(p));
}

}  // namespace archfit::registry
