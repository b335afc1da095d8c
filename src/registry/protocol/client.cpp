#include <optional>
#include <string_view>

#include <archfit/base/error.hpp>
#include <archfit/base/text.hpp>
#include <archfit/registry/protocol/client.hpp>
#include <archfit/registry/protocol/digest.hpp>
#include <archfit/registry/protocol/manifest.hpp>

#include "registry/protocol/session.hpp"

namespace archfit::registry {

namespace {

constexpr std::size_t kManifestLimit = 4 * 1024 * 1024;
constexpr std::size_t kConfigLimit = 1024 * 1024;
constexpr int kMaxIndexDepth = 4;

[[noreturn]] void unusable(const std::string& image, const std::string& why) {
  fail(ErrorKind::Resolution, image + ": " + why);
}

}  // namespace

struct Client::Impl {
  Transport& transport;
  const Keychain& keychain;
  ClientOptions options;
  ClientStats stats;
  Session session;

  Impl(Transport& t, const Keychain& k, ClientOptions o)
      : transport(t), keychain(k), options(std::move(o)), session(transport, options, stats) {}

  // One image at one endpoint (a mirror or the registry itself).
  class Walk {
   public:
    Walk(Impl& impl, Endpoint& ep, const std::string& repository, Caller caller)
        : impl_(impl), ep_(ep), repository_(repository), caller_(std::move(caller)) {
      deadline_ = impl.options.clock() + 4 * impl.options.timeout;
    }

    Resolved run(const image::Reference& ref, const KnownDigest& known) {
      Resolved out;
      std::string body;
      std::string content_type;
      out.digest = ref.digest();
      if (out.digest.empty()) {
        std::string tag = ref.tag().empty() ? "latest" : ref.tag();
        std::optional<std::string> digest;
        if (known) digest = head_digest(tag);
        if (digest) {
          out.digest = std::move(*digest);
        } else {
          HttpResponse get = request("GET", "/manifests/" + tag, kManifestLimit);
          if (get.status != 200) impl_.session.fail_status(ep_, get, caller_, "GET manifest");
          out.digest = sha256_digest(get.body);
          if (auto said = get.header("docker-content-digest");
              said && said->starts_with("sha256:") && *said != out.digest) {
            unusable(origin(), "the manifest of tag " + quoted(tag) + " hashes to " + out.digest +
                                   ", not to the " + quoted(*said, 140) +
                                   " the registry says (the body was altered or truncated)");
          }
          body = std::move(get.body);
          content_type = std::string(get.header("content-type").value_or(""));
        }
      }
      if (body.empty() && known) {
        if (std::optional<image::PlatformSet> platforms = known(out.digest)) {
          out.platforms = std::move(*platforms);
          out.known = true;
          return out;
        }
      }
      if (body.empty()) body = fetch_manifest(out.digest, content_type);
      Manifest m = parse_manifest(body, content_type, origin());
      out.media_type = m.media_type;
      out.platforms = platforms_of(m, 0);
      return out;
    }

   private:
    // The digest a tag points at, from a HEAD (Docker Hub does not count
    // HEADs against its pull limit). nullopt when the HEAD was refused or left
    // the digest out: a refused HEAD has no body to carry the OCI error code,
    // and some registries refuse HEAD itself, so the caller asks with GET.
    std::optional<std::string> head_digest(const std::string& tag) {
      HttpResponse head = request("HEAD", "/manifests/" + tag, kManifestLimit);
      if (head.status == 200) {
        // A digest that is not one is asked for with GET instead.
        if (auto digest = head.header("docker-content-digest");
            digest && is_checkable_digest(*digest)) {
          return std::string(*digest);
        }
        return std::nullopt;
      }
      if (head.status < 400 || head.status >= 500 || head.status == 429) {
        // Retries are spent; another request would only add to the load.
        impl_.session.fail_status(ep_, head, caller_, "HEAD manifest");
      }
      return std::nullopt;
    }

    // The image and where its answer came from, to begin a message.
    std::string origin() const { return caller_.image + " from " + ep_.host; }

    HttpResponse request(const std::string& method, const std::string& path, std::size_t limit) {
      HttpRequest r;
      r.method = method;
      r.url = "/v2/" + repository_ + path;
      r.max_body = limit;
      if (path.starts_with("/manifests/")) r.headers.emplace_back("Accept", manifest_accept());
      return impl_.session.send(ep_, repository_, std::move(r), caller_, deadline_);
    }

    std::string fetch_manifest(const std::string& digest, std::string& content_type) {
      HttpResponse r = request("GET", "/manifests/" + digest, kManifestLimit);
      if (r.status != 200) impl_.session.fail_status(ep_, r, caller_, "GET manifest " + digest);
      verify(digest, r.body, "manifest");
      content_type = std::string(r.header("content-type").value_or(""));
      return std::move(r.body);
    }

    void verify(const std::string& digest, const std::string& body, const char* what) {
      if (!digest_matches(digest, body)) {
        RegistryProblem p;
        p.image = caller_.image;
        p.host = ep_.host;
        p.detail = std::string("the ") + what + " received does not match its digest " + digest +
                   " (it hashes to " + sha256_digest(body) + ")";
        p.credentials = caller_.credential_name();
        throw RegistryError(std::move(p));
      }
    }

    image::PlatformSet platforms_of(const Manifest& m, int depth) {
      image::PlatformSet out;
      switch (m.kind) {
        case Manifest::Kind::Schema1:
          unusable(origin(),
                   "the registry serves a Docker schema 1 manifest, which archfit does not "
                   "support (it has no reliable platform); push the image again with a current "
                   "client");
        case Manifest::Kind::Image:
          out.insert(config_platform(m.config));
          return out;
        case Manifest::Kind::Index:
          break;
      }
      for (const Descriptor& entry : m.entries) {
        if (entry.attestation) continue;
        if (is_index_type(entry.media_type)) {
          if (depth + 1 >= kMaxIndexDepth) {
            unusable(origin(), "image indexes are nested more than " +
                                   std::to_string(kMaxIndexDepth) + " deep");
          }
          for (const image::Platform& p : child(entry, depth + 1))
            out.insert(p);
        } else if (entry.platform) {
          out.insert(*entry.platform);
        } else if (is_manifest_type(entry.media_type)) {
          for (const image::Platform& p : child(entry, depth + 1))
            out.insert(p);
        }
        // Anything else (signatures, SBOMs, other artifacts) is not a platform.
      }
      if (out.empty()) {
        unusable(origin(), "the image index lists no image for any platform");
      }
      return out;
    }

    image::PlatformSet child(const Descriptor& entry, int depth) {
      std::string content_type = entry.media_type;
      std::string body = fetch_manifest(entry.digest, content_type);
      return platforms_of(parse_manifest(body, content_type, origin()), depth);
    }

    image::Platform config_platform(const Descriptor& config) {
      if (config.media_type != media_type::kOciConfig &&
          config.media_type != media_type::kDockerConfig) {
        unusable(origin(), "this is not a container image: its config has media type " +
                               quoted(config.media_type, 100));
      }
      HttpResponse r = request("GET", "/blobs/" + config.digest, kConfigLimit);
      if (r.status != 200)
        impl_.session.fail_status(ep_, r, caller_, "GET config " + config.digest);
      verify(config.digest, r.body, "image config");
      return parse_config_platform(r.body, origin());
    }

    Impl& impl_;
    Endpoint& ep_;
    const std::string& repository_;
    Caller caller_;
    Deadline deadline_;
  };

  Caller caller_for(const image::Reference& ref, const std::string& registry,
                    const std::vector<Credential>* extra) {
    Caller c;
    c.image = ref.canonical();
    if (extra != nullptr && !extra->empty()) {
      c.credential = extra->front();
    } else {
      c.credential = keychain.find(registry, ref.repository());
    }
    return c;
  }
};

Client::Client(Transport& transport, const Keychain& keychain, ClientOptions options)
    : impl_(std::make_unique<Impl>(transport, keychain, std::move(options))) {}

Client::~Client() = default;

const ClientStats& Client::stats() const {
  return impl_->stats;
}

Resolved Client::resolve(const image::Reference& ref, const std::vector<Credential>& extra,
                         const KnownDigest& known) {
  std::vector<std::string> mirrors;
  if (auto it = impl_->options.mirrors.find(ref.registry()); it != impl_->options.mirrors.end()) {
    mirrors = it->second;
  }
  for (const std::string& mirror : mirrors) {
    try {
      Endpoint& ep = impl_->session.endpoint(mirror, mirror);
      Impl::Walk walk(*impl_, ep, ref.repository(), impl_->caller_for(ref, mirror, nullptr));
      return walk.run(ref, known);
    } catch (const Error& e) {
      if (impl_->options.log) impl_->options.log("mirror " + mirror + " failed: " + e.what());
    }
  }
  Endpoint& ep = impl_->session.endpoint(ref.registry(), ref.api_host());
  Impl::Walk walk(*impl_, ep, ref.repository(), impl_->caller_for(ref, ref.registry(), &extra));
  return walk.run(ref, known);
}

}  // namespace archfit::registry
