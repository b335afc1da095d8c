// The client's handshake against a scripted registry behind the Transport
// seam: what it asks, in which order, with which headers, and what it makes
// of the answers. The real registry and real faults over sockets are in
// tests/integration.
#include <functional>
#include <map>
#include <mutex>

#include <gtest/gtest.h>

#include <archfit/base/error.hpp>
#include <archfit/registry/protocol/client.hpp>
#include <archfit/registry/protocol/digest.hpp>
#include <archfit/registry/protocol/error.hpp>

#include "support/fake_registry.hpp"

namespace archfit::registry {
namespace {

using archfit::testing::FakeRegistry;
using archfit::testing::index_of;

// A cache that holds nothing yet: makes the client HEAD a tag first.
const KnownDigest kNothingKnown = [](const std::string&) {
  return std::optional<image::PlatformSet>();
};

struct Harness {
  FakeRegistry registry;
  Keychain keychain;
  std::vector<std::chrono::milliseconds> slept;
  ClientOptions options() {
    ClientOptions o;
    o.sleep = [this](std::chrono::milliseconds d) { slept.push_back(d); };
    o.timeout = std::chrono::seconds(5);
    return o;
  }
  Resolved resolve(const std::string& image, const ClientOptions& o,
                   const std::vector<Credential>& extra = {}, KnownDigest known = nullptr) {
    Client client(registry, keychain, o);
    return client.resolve(image::Reference::parse(image), extra, known);
  }
};

TEST(Client, IndexByTagAttestationsSkipped) {
  Harness h;
  std::string amd = h.registry.add_image("linux", "amd64");
  std::string arm = h.registry.add_image("linux", "arm64");
  std::string att = h.registry.add_image("unknown", "unknown");
  std::string index = h.registry.add_manifest(
      "application/vnd.oci.image.index.v1+json",
      index_of(
          {{amd, R"(,"platform":{"os":"linux","architecture":"amd64"})"},
           {arm, R"(,"platform":{"os":"linux","architecture":"arm64","variant":"v8"})"},
           {att,
            R"(,"platform":{"os":"unknown","architecture":"unknown"},"annotations":{"vnd.docker.reference.type":"attestation-manifest"})"}}));
  h.registry.tags["1.0"] = index;
  Resolved r = h.resolve("registry.example/app:1.0", h.options());
  EXPECT_EQ(r.platforms.str(), "linux/amd64,linux/arm64");
  EXPECT_EQ(r.digest, index);
  EXPECT_FALSE(r.known);
  // Nothing known: ping, GET by tag; no HEAD, no child manifests, no blobs.
  ASSERT_EQ(h.registry.seen.size(), 2u);
  EXPECT_EQ(h.registry.seen[0].url, "https://registry.example/v2/");
  EXPECT_EQ(h.registry.seen[1].method, "GET");
  EXPECT_EQ(h.registry.seen[1].url, "https://registry.example/v2/app/manifests/1.0");

  // With a cache to ask: HEAD by tag, then GET by digest.
  Harness warm;
  warm.registry.manifests = h.registry.manifests;
  warm.registry.tags = h.registry.tags;
  EXPECT_EQ(
      warm.resolve("registry.example/app:1.0", warm.options(), {}, kNothingKnown).platforms.str(),
      "linux/amd64,linux/arm64");
  ASSERT_EQ(warm.registry.seen.size(), 3u);
  EXPECT_EQ(warm.registry.seen[1].method, "HEAD");
  EXPECT_EQ(warm.registry.seen[1].url, "https://registry.example/v2/app/manifests/1.0");
  EXPECT_EQ(warm.registry.seen[2].url, "https://registry.example/v2/app/manifests/" + index);
}

TEST(Client, TagBodyMustMatchTheDigestTheRegistrySays) {
  Harness h;
  h.registry.tags["1"] = h.registry.add_image("linux", "amd64");
  h.registry.hook = [&](const HttpRequest& r, HttpResponse& out) {
    if (!r.url.ends_with("/manifests/1")) return false;
    out.status = 200;
    out.headers = {{"content-type", "application/vnd.oci.image.manifest.v1+json"},
                   {"docker-content-digest", h.registry.tags["1"]}};
    out.body = h.registry.manifests[h.registry.tags["1"]].second + " ";
    return true;
  };
  try {
    h.resolve("registry.example/app:1", h.options());
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("hashes to sha256:"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("altered or truncated"), std::string::npos) << e.what();
  }
}

TEST(Client, KnownDigestCostsOneHead) {
  Harness h;
  std::string img = h.registry.add_image("linux", "amd64");
  h.registry.tags["v1"] = img;
  std::string asked;
  Resolved r = h.resolve("registry.example/app:v1", h.options(), {},
                         [&](const std::string& d) -> std::optional<image::PlatformSet> {
                           asked = d;
                           return image::PlatformSet::parse("linux/s390x");
                         });
  EXPECT_TRUE(r.known);
  EXPECT_EQ(asked, img);
  EXPECT_EQ(r.platforms.str(), "linux/s390x");
  EXPECT_EQ(h.registry.count("HEAD"), 1u);
  EXPECT_EQ(h.registry.count("GET", "/manifests/"), 0u);
}

TEST(Client, SingleManifestReadsItsConfig) {
  Harness h;
  std::string img = h.registry.add_image("linux", "arm", "v7");
  Resolved r = h.resolve("registry.example/app@" + img, h.options());
  EXPECT_EQ(r.platforms.str(), "linux/arm/v7");
  EXPECT_EQ(h.registry.count("HEAD"), 0u);  // a digest needs no HEAD
  EXPECT_EQ(h.registry.count("GET", "/blobs/"), 1u);
}

TEST(Client, TagAndDigestUsesTheDigest) {
  Harness h;
  std::string img = h.registry.add_image("linux", "amd64");
  h.registry.tags["moved"] = h.registry.add_image("linux", "arm64");
  Resolved r = h.resolve("registry.example/app:moved@" + img, h.options());
  EXPECT_EQ(r.platforms.str(), "linux/amd64");
  EXPECT_EQ(r.digest, img);
}

TEST(Client, NestedIndexAndEntriesWithoutPlatform) {
  Harness h;
  std::string s390 = h.registry.add_image("linux", "s390x");
  std::string ppc = h.registry.add_image("linux", "ppc64le");
  std::string inner = h.registry.add_manifest(
      "application/vnd.oci.image.index.v1+json",
      index_of({{s390, R"(,"platform":{"os":"linux","architecture":"s390x"})"}}));
  std::string outer = h.registry.add_manifest(
      "application/vnd.oci.image.index.v1+json",
      R"({"schemaVersion":2,"manifests":[{"mediaType":"application/vnd.oci.image.index.v1+json","size":1,"digest":")" +
          inner +
          R"("},{"mediaType":"application/vnd.oci.image.manifest.v1+json","size":1,"digest":")" +
          ppc + R"("}]})");
  Resolved r = h.resolve("registry.example/app@" + outer, h.options());
  EXPECT_EQ(r.platforms.str(), "linux/ppc64le,linux/s390x");
}

TEST(Client, BearerTokenFetchedOnceAndCached) {
  Harness h;
  h.registry.tags["1"] = h.registry.add_image("linux", "amd64");
  int tokens = 0;
  h.registry.hook = [&](const HttpRequest& r, HttpResponse& out) {
    if (r.url.starts_with("https://auth.example/token")) {
      ++tokens;
      out.status = 200;
      out.body = R"({"access_token":"tok-)" + std::to_string(tokens) + R"(","expires_in":300})";
      return true;
    }
    bool authorized = false;
    for (const auto& [k, v] : r.headers)
      authorized |= k == "Authorization" && v.starts_with("Bearer tok-");
    if (!authorized) {
      out.status = 401;
      out.headers = {{"www-authenticate", R"(Bearer realm="https://auth.example/token")"}};
      return true;
    }
    return false;
  };
  Client client(h.registry, h.keychain, h.options());
  auto ref = image::Reference::parse("registry.example/team/app:1");
  EXPECT_EQ(client.resolve(ref, {}, nullptr).platforms.str(), "linux/amd64");
  EXPECT_EQ(client.resolve(ref, {}, nullptr).platforms.str(), "linux/amd64");
  EXPECT_EQ(tokens, 1);
  // The challenge had no service: the token request names none.
  const auto& token_request = h.registry.seen[1];
  EXPECT_EQ(token_request.url, "https://auth.example/token?scope=repository%3Ateam%2Fapp%3Apull");
  EXPECT_EQ(token_request.authorization, "");  // anonymous
}

TEST(Client, InsufficientScopeAddsTheScopeAndRetriesOnce) {
  Harness h;
  h.registry.tags["1"] = h.registry.add_image("linux", "amd64");
  std::vector<std::string> token_urls;
  h.registry.hook = [&](const HttpRequest& r, HttpResponse& out) {
    if (r.url.starts_with("https://auth.example/token")) {
      token_urls.push_back(r.url);
      out.status = 200;
      bool wide = r.url.find("scope=repository%3Aextra%3Apull") != std::string::npos;
      out.body = wide ? R"({"token":"wide"})" : R"({"token":"narrow"})";
      return true;
    }
    std::string auth;
    for (const auto& [k, v] : r.headers) {
      if (k == "Authorization") auth = v;
    }
    if (auth == "Bearer wide") return false;
    out.status = 401;
    out.headers = {
        {"www-authenticate",
         auth.empty()
             ? R"(Bearer realm="https://auth.example/token",service="reg")"
             : R"(Bearer realm="https://auth.example/token",service="reg",scope="repository:extra:pull",error="insufficient_scope")"}};
    return true;
  };
  Resolved r = h.resolve("registry.example/app:1", h.options());
  EXPECT_EQ(r.platforms.str(), "linux/amd64");
  ASSERT_EQ(token_urls.size(), 2u);
  EXPECT_NE(token_urls[0].find("service=reg"), std::string::npos);
  EXPECT_NE(token_urls[1].find("scope=repository%3Aextra%3Apull"), std::string::npos);
  EXPECT_NE(token_urls[1].find("scope=repository%3Aapp%3Apull"), std::string::npos);
}

TEST(Client, IdentityTokenPostsThenFallsBackToGet) {
  Harness h;
  h.registry.tags["1"] = h.registry.add_image("linux", "amd64");
  h.registry.hook = [&](const HttpRequest& r, HttpResponse& out) {
    if (r.url.starts_with("https://auth.example/token")) {
      out.status = r.method == "POST" ? 404 : 200;
      out.body = R"({"token":"t"})";
      return true;
    }
    if (r.url.ends_with("/v2/")) {
      out.status = 401;
      out.headers = {
          {"www-authenticate", R"(Bearer realm="https://auth.example/token",service="s")"}};
      return true;
    }
    return false;
  };
  Credential c;
  c.identity_token = "refresh-secret";
  c.source = "test identity";
  Resolved r = h.resolve("registry.example/app:1", h.options(), {c});
  EXPECT_EQ(r.platforms.str(), "linux/amd64");
  ASSERT_GE(h.registry.count("POST"), 1u);
  const auto& post = h.registry.seen[1];
  EXPECT_EQ(post.method, "POST");
  EXPECT_NE(post.body.find("grant_type=refresh_token&refresh_token=refresh-secret"),
            std::string::npos);
  EXPECT_EQ(h.registry.seen[2].method, "GET");
  EXPECT_TRUE(h.registry.seen[2].url.starts_with("https://auth.example/token?"));
  EXPECT_TRUE(h.registry.seen[2].authorization.starts_with("Basic "));
}

TEST(Client, RetriesHonourRetryAfter) {
  Harness h;
  h.registry.tags["1"] = h.registry.add_image("linux", "amd64");
  int heads = 0;
  h.registry.hook = [&](const HttpRequest& r, HttpResponse& out) {
    if (r.method == "HEAD" && ++heads == 1) {
      out.status = 429;
      out.headers = {{"retry-after", "2"}};
      return true;
    }
    if (r.method == "HEAD" && heads == 2) {
      out.status = 503;
      return true;
    }
    return false;
  };
  Resolved r = h.resolve("registry.example/app:1", h.options(), {}, kNothingKnown);
  EXPECT_EQ(r.platforms.str(), "linux/amd64");
  ASSERT_EQ(h.slept.size(), 2u);
  EXPECT_EQ(h.slept[0], std::chrono::milliseconds(2000));
  EXPECT_LE(h.slept[1], std::chrono::milliseconds(600));
}

TEST(Client, GivesUpAfterBoundedRetriesWithAClearMessage) {
  Harness h;
  h.registry.hook = [&](const HttpRequest& r, HttpResponse& out) {
    if (r.method != "HEAD") return false;
    out.status = 429;
    out.body = R"({"errors":[{"code":"TOOMANYREQUESTS","message":"slow down"}]})";
    return true;
  };
  try {
    h.resolve("registry.example/app:1", h.options(), {}, kNothingKnown);
    FAIL();
  } catch (const RegistryError& e) {
    EXPECT_EQ(e.problem().status, 429);
    EXPECT_EQ(std::string(e.what()),
              "registry.example/app:1: 429 from registry.example (HEAD manifest): "
              "too many requests (credentials: none)");
  }
  EXPECT_EQ(h.registry.count("HEAD"), 4u);
  EXPECT_EQ(h.registry.count("GET", "/manifests/"), 0u)
      << "no extra request once retries are spent";
}

TEST(Client, DigestMismatchIsAnError) {
  Harness h;
  std::string img = h.registry.add_image("linux", "amd64");
  h.registry.manifests[img].second += " ";  // the body no longer hashes to its digest
  try {
    h.resolve("registry.example/app@" + img, h.options());
    FAIL();
  } catch (const RegistryError& e) {
    EXPECT_NE(std::string(e.what()).find("does not match its digest " + img), std::string::npos)
        << e.what();
  }
}

TEST(Client, RedirectToAnotherOriginDropsAuthorization) {
  Harness h;
  std::string img = h.registry.add_image("linux", "amd64");
  h.registry.hook = [&](const HttpRequest& r, HttpResponse& out) {
    if (r.url.ends_with("/v2/")) {
      out.status = 401;
      out.headers = {{"www-authenticate", R"(Basic realm="reg")"}};
      return true;
    }
    if (r.url.find("registry.example/v2/app/blobs/") != std::string::npos) {
      out.status = 307;
      out.headers = {{"location", "https://storage.example/blob?sig=1"}};
      return true;
    }
    if (r.url.starts_with("https://storage.example/")) {
      out.status = 200;
      out.body = h.registry.blobs.begin()->second;
      return true;
    }
    return false;
  };
  Credential c;
  c.username = "u";
  c.password = "p";
  c.source = "test";
  Resolved r = h.resolve("registry.example/app@" + img, h.options(), {c});
  EXPECT_EQ(r.platforms.str(), "linux/amd64");
  for (const auto& s : h.registry.seen) {
    if (s.url.starts_with("https://registry.example/v2/app/")) {
      EXPECT_EQ(s.authorization, "Basic dTpw") << s.url;
    }
    if (s.url.starts_with("https://storage.example/")) {
      EXPECT_EQ(s.authorization, "") << s.url;
    }
  }
  EXPECT_EQ(h.registry.count("GET", "storage.example"), 1u);
}

TEST(Client, Schema1AndArtifactsAreRefused) {
  Harness h;
  std::string s1 =
      h.registry.add_manifest("application/vnd.docker.distribution.manifest.v1+prettyjws",
                              R"({"schemaVersion":1,"fsLayers":[]})");
  EXPECT_THROW(
      {
        try {
          h.resolve("registry.example/app@" + s1, h.options());
        } catch (const Error& e) {
          EXPECT_NE(std::string(e.what()).find("schema 1"), std::string::npos) << e.what();
          throw;
        }
      },
      Error);
  std::string cfg = h.registry.add_blob("{}");
  std::string chart = h.registry.add_manifest(
      "application/vnd.oci.image.manifest.v1+json",
      R"({"schemaVersion":2,"config":{"mediaType":"application/vnd.cncf.helm.config.v1+json","digest":")" +
          cfg + R"(","size":2},"layers":[]})");
  try {
    h.resolve("registry.example/app@" + chart, h.options());
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("not a container image"), std::string::npos) << e.what();
  }
}

TEST(Client, MissingRepositoryNamesStatusHostAndCredentials) {
  Harness h;
  h.registry.hook = [&](const HttpRequest& r, HttpResponse& out) {
    if (r.url.ends_with("/v2/")) return false;
    out.status = 401;
    out.body = R"({"errors":[{"code":"UNAUTHORIZED","message":"authentication required"}]})";
    return true;
  };
  try {
    h.resolve("nginx:1.25", h.options(), {}, kNothingKnown);
    FAIL();
  } catch (const RegistryError& e) {
    EXPECT_EQ(std::string(e.what()),
              "docker.io/library/nginx:1.25: 401 UNAUTHORIZED from registry-1.docker.io (GET "
              "manifest): authentication required (credentials: none)");
  }
  // The HEAD's answer has no body to name the code; one GET asks for it.
  EXPECT_EQ(h.registry.count("HEAD"), 1u);
  EXPECT_EQ(h.registry.count("GET", "/manifests/"), 1u);
}

TEST(Client, MirrorsComeFirstAndFallBack) {
  Harness h;
  h.registry.tags["1"] = h.registry.add_image("linux", "amd64");
  h.registry.hook = [&](const HttpRequest& r, HttpResponse& out) {
    if (r.url.starts_with("https://broken.mirror/")) {
      out.failure = Failure::Connect;
      out.failure_message = "connection refused";
      return true;
    }
    return false;
  };
  ClientOptions o = h.options();
  o.mirrors["docker.io"] = {"broken.mirror", "good.mirror"};
  Resolved r = h.resolve("nginx:1", o);
  EXPECT_EQ(r.platforms.str(), "linux/amd64");
  EXPECT_GE(h.registry.count("GET", "https://broken.mirror/v2/"), 1u);
  EXPECT_EQ(h.registry.count("GET", "https://good.mirror/v2/library/nginx/manifests/1"), 1u);
  EXPECT_EQ(h.registry.count("GET", "registry-1.docker.io"), 0u);
}

TEST(Client, InsecureRegistryFallsBackToPlainHttp) {
  Harness h;
  h.registry.tags["1"] = h.registry.add_image("linux", "amd64");
  h.registry.hook = [&](const HttpRequest& r, HttpResponse& out) {
    if (r.url.starts_with("https://")) {
      EXPECT_FALSE(r.verify_tls);
      out.failure = Failure::Tls;
      out.failure_message = "wrong version number";
      return true;
    }
    return false;
  };
  ClientOptions o = h.options();
  o.insecure_registries = {"127.0.0.1:5000"};
  Resolved r = h.resolve("127.0.0.1:5000/app:1", o);
  EXPECT_EQ(r.platforms.str(), "linux/amd64");
  EXPECT_EQ(h.registry.count("GET", "http://127.0.0.1:5000/v2/app/manifests/1"), 1u);
}

TEST(Client, TlsFailureOfASecureRegistrySaysWhatToDo) {
  Harness h;
  h.registry.hook = [&](const HttpRequest&, HttpResponse& out) {
    out.failure = Failure::Tls;
    out.failure_message = "SSL certificate problem: self-signed certificate";
    return true;
  };
  try {
    h.resolve("registry.example/app:1", h.options());
    FAIL();
  } catch (const RegistryError& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("TLS handshake failed with registry.example"), std::string::npos) << m;
    EXPECT_NE(m.find("resolve.caFile"), std::string::npos) << m;
  }
  EXPECT_EQ(h.registry.seen.size(), 1u);  // a TLS failure is not retried
}

}  // namespace
}  // namespace archfit::registry
