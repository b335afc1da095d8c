// A content-addressed registry in memory behind the Transport seam, with a
// hook for odd behaviour, that records every request it sees.
#pragma once

#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include <archfit/registry/protocol/digest.hpp>
#include <archfit/registry/transport/http.hpp>

namespace archfit::testing {

using registry::HttpRequest;
using registry::HttpResponse;

class FakeRegistry : public registry::Transport {
 public:
  struct Seen {
    std::string method;
    std::string url;
    std::string authorization;
    std::string body;
    registry::Headers headers;
    bool allow_link_local = false;
    bool allow_loopback = true;
  };

  std::map<std::string, std::pair<std::string, std::string>> manifests;  // digest -> type, body
  std::map<std::string, std::string> tags;                               // tag -> digest
  std::map<std::string, std::string> blobs;                              // digest -> body
  // Answers before the default behaviour; return true when it answered.
  std::function<bool(const HttpRequest&, HttpResponse&)> hook;
  std::vector<Seen> seen;

  std::string add_manifest(const std::string& type, const std::string& body) {
    std::string digest = registry::sha256_digest(body);
    manifests[digest] = {type, body};
    return digest;
  }
  std::string add_blob(const std::string& body) {
    std::string digest = registry::sha256_digest(body);
    blobs[digest] = body;
    return digest;
  }
  // An image manifest for a platform, with its config blob.
  std::string add_image(const std::string& os, const std::string& arch,
                        const std::string& variant = "") {
    std::string config = R"({"os":")" + os + R"(","architecture":")" + arch + "\"" +
                         (variant.empty() ? "" : R"(,"variant":")" + variant + "\"") +
                         R"(,"rootfs":{"type":"layers","diff_ids":[]}})";
    std::string config_digest = add_blob(config);
    return add_manifest(
        "application/vnd.oci.image.manifest.v1+json",
        R"({"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json","config":{"mediaType":"application/vnd.oci.image.config.v1+json","digest":")" +
            config_digest + R"(","size":1},"layers":[]})");
  }

  std::size_t count(const std::string& method, const std::string& part = "") const {
    std::size_t n = 0;
    for (const Seen& s : seen) {
      if (s.method == method && s.url.find(part) != std::string::npos) ++n;
    }
    return n;
  }

  HttpResponse perform(const HttpRequest& r) override {
    std::lock_guard<std::mutex> hold(mutex_);
    std::string auth;
    for (const auto& [k, v] : r.headers) {
      if (k == "Authorization") auth = v;
    }
    seen.push_back(
        {r.method, r.url, auth, r.body, r.headers, r.allow_link_local, r.allow_loopback});
    HttpResponse out;
    if (hook && hook(r, out)) {
      if (r.method == "HEAD") out.body.clear();  // as HTTP has it
      return out;
    }
    std::string path = r.url.substr(r.url.find('/', r.url.find("://") + 3));
    if (path == "/v2/") {
      out.status = 200;
      return out;
    }
    std::size_t at = path.find("/manifests/");
    if (at != std::string::npos) {
      std::string ref = path.substr(at + 11);
      if (tags.contains(ref)) ref = tags[ref];
      auto it = manifests.find(ref);
      if (it == manifests.end()) {
        out.status = 404;
        out.body = R"({"errors":[{"code":"MANIFEST_UNKNOWN","message":"manifest unknown"}]})";
        return out;
      }
      out.status = 200;
      out.headers = {{"content-type", it->second.first}, {"docker-content-digest", ref}};
      if (r.method != "HEAD") out.body = it->second.second;
      return out;
    }
    at = path.find("/blobs/");
    if (at != std::string::npos && blobs.contains(path.substr(at + 7))) {
      out.status = 200;
      out.body = blobs[path.substr(at + 7)];
      return out;
    }
    out.status = 404;
    return out;
  }

 private:
  std::mutex mutex_;
};

inline std::string index_of(const std::vector<std::pair<std::string, std::string>>& entries) {
  std::string body =
      R"({"schemaVersion":2,"mediaType":"application/vnd.oci.image.index.v1+json","manifests":[)";
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (i) body += ",";
    body += R"({"mediaType":"application/vnd.oci.image.manifest.v1+json","size":1,"digest":")" +
            entries[i].first + "\"" + entries[i].second + "}";
  }
  return body + "]}";
}

}  // namespace archfit::testing
