#include "registry/protocol/token.hpp"

#include <algorithm>

#include <rapidjson/document.h>

#include <archfit/base/base64.hpp>
#include <archfit/base/text.hpp>
#include <archfit/registry/protocol/error.hpp>

#include "registry/transport/url.hpp"

namespace archfit::registry {

namespace {

constexpr const char* kClientId = "archfit";

std::string credential_name(const std::optional<Credential>& c) {
  return c ? c->source : "none";
}

[[noreturn]] void refuse_realm(const std::string& image, const std::string& host,
                               const std::optional<Credential>& credential,
                               const std::string& detail) {
  RegistryProblem p;
  p.image = image;
  p.host = host;
  p.failure = Failure::Refused;
  p.what = "token request";
  p.detail = detail;
  p.credentials = credential_name(credential);
  throw RegistryError(std::move(p));
}

[[noreturn]] void refuse(const HttpResponse& r, const std::string& host, const std::string& image,
                         const std::optional<Credential>& credential, const std::string& detail) {
  RegistryProblem p;
  p.image = image;
  p.host = host;
  p.status = r.status;
  p.errors = parse_oci_errors(r.body);
  p.what = "token request";
  p.detail = detail;
  p.credentials = credential_name(credential);
  throw RegistryError(std::move(p));
}

std::string query(const TokenRequest& request, bool with_client_id) {
  std::string q;
  for (const std::string& scope : request.scopes) {
    q += (q.empty() ? "" : "&") + std::string("scope=") + form_encode(scope);
  }
  std::string service = request.bearer.param("service");
  if (!service.empty()) q += "&service=" + form_encode(service);
  if (with_client_id) q += std::string("&client_id=") + kClientId;
  return q;
}

TokenAnswer read_answer(const HttpResponse& r, const std::string& host, const std::string& image,
                        const std::optional<Credential>& credential) {
  rapidjson::Document doc;
  doc.Parse<rapidjson::kParseIterativeFlag>(r.body.data(), r.body.size());
  if (doc.HasParseError() || !doc.IsObject()) {
    refuse(r, host, image, credential, "the token server's answer is not a JSON object");
  }
  TokenAnswer answer;
  for (const char* name : {"token", "access_token"}) {
    auto it = doc.FindMember(name);
    if (it != doc.MemberEnd() && it->value.IsString() && it->value.GetStringLength() > 0) {
      answer.token.assign(it->value.GetString(), it->value.GetStringLength());
      break;
    }
  }
  if (answer.token.empty()) refuse(r, host, image, credential, "the answer holds no token");
  if (std::string why = unusable_token(answer.token); !why.empty()) {
    refuse(r, host, image, credential, "the token server's token " + why);
  }
  auto expires = doc.FindMember("expires_in");
  if (expires != doc.MemberEnd() && expires->value.IsNumber() && expires->value.GetDouble() >= 1) {
    double seconds =
        std::min(expires->value.GetDouble(), static_cast<double>(kMaxTokenLifetime.count()));
    answer.expires_in = std::chrono::seconds(static_cast<std::int64_t>(seconds));
  }
  return answer;
}

}  // namespace

std::string unusable_token(std::string_view token) {
  if (token.size() > kMaxTokenBytes) {
    return "is " + std::to_string(token.size()) + " bytes long, more than the " +
           std::to_string(kMaxTokenBytes) + " a header may carry here";
  }
  for (std::size_t i = 0; i < token.size(); ++i) {
    auto c = static_cast<unsigned char>(token[i]);
    if (c <= 0x20 || c >= 0x7f) {
      return "holds a character a header cannot carry (byte " + std::to_string(c) + " at offset " +
             std::to_string(i) + ")";
    }
  }
  return {};
}

TokenAnswer fetch_token(const TokenRequest& request, const Perform& perform,
                        const std::string& image) {
  const std::string realm = request.bearer.param("realm");
  const std::optional<Credential>& cred = request.credential;
  const std::string host = host_of(realm);
  std::optional<Destination> target = destination_of(realm);
  if (host.empty() || !target) {
    RegistryProblem p;
    p.image = image;
    p.what = "token request";
    p.detail = "the registry's Bearer challenge names no usable realm (" + quoted(realm, 100) +
               "; an http or https URL is needed)";
    p.credentials = credential_name(cred);
    throw RegistryError(std::move(p));
  }
  if (std::string why = refuse_request(request.registry, *target, "the token server");
      !why.empty()) {
    refuse_realm(image, host, cred, why);
  }
  bool sends_credentials = cred && (!cred->identity_token.empty() || !cred->username.empty());
  if (sends_credentials) {
    if (std::string why = refuse_credentials(request.registry, *target); !why.empty()) {
      refuse_realm(image, host, cred, why);
    }
  }

  // Checked again at connect time: the name may resolve to this machine.
  const bool elsewhere =
      target->host != request.registry.host || target->port != request.registry.port;
  const bool allow_loopback = !(sends_credentials && elsewhere);

  if (cred && !cred->identity_token.empty()) {
    HttpRequest post;
    post.allow_loopback = allow_loopback;
    post.method = "POST";
    post.url = realm;
    post.headers.emplace_back("Content-Type", "application/x-www-form-urlencoded");
    post.body = "grant_type=refresh_token&refresh_token=" + form_encode(cred->identity_token) +
                "&" + query(request, true);
    post.max_body = 64 * 1024;
    HttpResponse r = perform(std::move(post), host, "token request");
    if (r.status == 200) return read_answer(r, host, image, cred);
    // Servers without the OAuth2 endpoint answer 404 (or 405): use GET.
    if (r.status != 404 && r.status != 405) refuse(r, host, image, cred, "");
  }

  HttpRequest get;
  get.allow_loopback = allow_loopback;
  get.url = with_query(realm, query(request, false));
  get.max_body = 64 * 1024;
  if (cred) {
    std::string user = cred->username;
    std::string secret = cred->password;
    if (!cred->identity_token.empty()) {
      if (user.empty()) user = "<token>";
      secret = cred->identity_token;
    }
    if (!user.empty()) {
      get.headers.emplace_back("Authorization", "Basic " + base64_encode(user + ":" + secret));
    }
  }
  HttpResponse r = perform(std::move(get), host, "token request");
  if (r.status != 200) {
    refuse(r, host, image, cred,
           r.status == 401 || r.status == 403 ? "the token server refused the credentials" : "");
  }
  return read_answer(r, host, image, cred);
}

}  // namespace archfit::registry
