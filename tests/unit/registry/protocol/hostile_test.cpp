// A registry's answers are input it does not control: tokens that would
// inject headers, lifetimes that overflow, token servers and redirects that
// point at other hosts, link-local addresses or another loopback port, and
// words meant for a terminal. Each is refused with a message, before
// anything reaches where it should not.
#include <gtest/gtest.h>

#include <archfit/base/error.hpp>
#include <archfit/registry/protocol/client.hpp>
#include <archfit/registry/protocol/error.hpp>

#include "registry/protocol/token.hpp"
#include "registry/transport/destinations.hpp"
#include "support/fake_registry.hpp"

namespace archfit::registry {
namespace {

using archfit::testing::FakeRegistry;
using archfit::testing::index_of;

struct Hostile {
  FakeRegistry registry;
  Keychain keychain;
  ClientOptions options() {
    ClientOptions o;
    o.sleep = [](std::chrono::milliseconds) {};
    o.timeout = std::chrono::seconds(5);
    return o;
  }
  Resolved resolve(const std::string& image, const std::vector<Credential>& extra = {}) {
    Client client(registry, keychain, options());
    return client.resolve(image::Reference::parse(image), extra, nullptr);
  }
  // The message of the RegistryError resolving `image` throws.
  std::string refusal(const std::string& image, const std::vector<Credential>& extra = {}) {
    try {
      resolve(image, extra);
    } catch (const RegistryError& e) {
      return e.what();
    }
    ADD_FAILURE() << image << " resolved";
    return {};
  }
  std::size_t requests_to(std::string_view prefix) const {
    std::size_t n = 0;
    for (const auto& s : registry.seen)
      n += s.url.starts_with(prefix) ? 1 : 0;
    return n;
  }
};

Credential basic_credential() {
  Credential c;
  c.username = "user";
  c.password = "Secret-Pw";
  c.source = "test config";
  return c;
}

// A registry whose Bearer challenge names `realm`, and whose token server
// there answers `answer`.
void bearer(Hostile& h, const std::string& realm, const std::string& answer) {
  h.registry.tags["1"] = h.registry.add_image("linux", "amd64");
  h.registry.hook = [&h, realm, answer](const HttpRequest& r, HttpResponse& out) {
    if (r.url.starts_with(realm)) {
      out.status = 200;
      out.body = answer;
      return true;
    }
    bool authorized = false;
    for (const auto& [k, v] : r.headers)
      authorized |= k == "Authorization";
    if (!authorized) {
      out.status = 401;
      out.headers = {{"www-authenticate", "Bearer realm=\"" + realm + "\",service=\"s\""}};
      return true;
    }
    (void)h;
    return false;
  };
}

TEST(HostileRegistry, TokenThatWouldInjectAHeaderIsRefused) {
  for (std::string token :
       std::vector<std::string>{R"(abc\r\nX-Injected: evil)", R"(abc\nX-Injected: evil)",
                                R"(with space)", "caf\\u00e9"}) {
    Hostile h;
    bearer(h, "https://auth.example/token", R"({"token":")" + token + R"("})");
    std::string message = h.refusal("registry.example/app:1");
    EXPECT_NE(message.find("the token server's token holds a character a header cannot carry"),
              std::string::npos)
        << message;
    // Nothing was sent with it.
    for (const auto& s : h.registry.seen) {
      EXPECT_EQ(s.authorization.find("Bearer"), std::string::npos) << s.url;
    }
  }
}

TEST(HostileRegistry, TokenTooLongIsRefused) {
  Hostile h;
  bearer(h, "https://auth.example/token", R"({"token":")" + std::string(20000, 'a') + R"("})");
  EXPECT_NE(h.refusal("registry.example/app:1").find("20000 bytes long"), std::string::npos);
}

TEST(HostileRegistry, HugeLifetimesAreBoundedNotOverflowed) {
  // Under UBSan a signed overflow here fails the test.
  for (std::string expires : std::vector<std::string>{
           "1000000000000000000", "1e18", "9223372036854775807", "1e308", "-5", "0.5", "\"300\""}) {
    Hostile h;
    bearer(h, "https://auth.example/token", R"({"token":"t","expires_in":)" + expires + "}");
    Client client(h.registry, h.keychain, h.options());
    auto ref = image::Reference::parse("registry.example/app:1");
    EXPECT_EQ(client.resolve(ref, {}, nullptr).platforms.str(), "linux/amd64") << expires;
    EXPECT_EQ(client.resolve(ref, {}, nullptr).platforms.str(), "linux/amd64") << expires;
  }
}

TEST(HostileRegistry, CredentialsGoOnlyToTheRegistryHostOrOverHttps) {
  struct Row {
    std::string registry;  // image prefix
    std::string realm;
    bool credentials_sent;
  };
  for (const Row& row : std::vector<Row>{
           {"registry.example", "https://auth.example/token", true},
           {"registry.example", "https://registry.example/token", true},
           {"registry.example", "https://registry.example:8443/token", true},
           {"registry.example", "http://auth.example/token", false},
           {"registry.example", "https://localhost/token", false},
           {"registry.example", "https://127.0.0.1:9000/token", false},
           {"localhost:5000", "https://localhost:5000/token", true},
           {"localhost:5000", "https://localhost:5001/token", false},
           {"127.0.0.1:5000", "http://127.0.0.1:6000/token", false},
           {"127.0.0.1:5000", "https://127.1:6000/token", false},
           {"127.0.0.1:5000", "https://0.0.0.0:6000/token", false},
           {"registry.example", "https://2130706433/token", false},
       }) {
    Hostile h;
    bearer(h, row.realm, R"({"token":"t"})");
    const std::string image = row.registry + "/app:1";
    if (row.credentials_sent) {
      EXPECT_EQ(h.resolve(image, {basic_credential()}).platforms.str(), "linux/amd64") << row.realm;
      bool basic_to_realm = false;
      for (const auto& s : h.registry.seen) {
        if (s.url.starts_with(row.realm)) basic_to_realm |= s.authorization.starts_with("Basic ");
      }
      EXPECT_TRUE(basic_to_realm) << row.realm;
      continue;
    }
    std::string message = h.refusal(image, {basic_credential()});
    EXPECT_NE(message.find("archfit sends the registry's credentials"), std::string::npos)
        << message;
    EXPECT_NE(message.find("(credentials: test config)"), std::string::npos) << message;
    EXPECT_EQ(h.requests_to(row.realm), 0u) << row.realm;
    // Without credentials there is nothing to keep safe: an anonymous token.
    Hostile anonymous;
    bearer(anonymous, row.realm, R"({"token":"t"})");
    EXPECT_EQ(anonymous.resolve(image).platforms.str(), "linux/amd64") << row.realm;
  }
}

TEST(HostileRegistry, NothingGoesToLinkLocalAddressesTheRegistryIsNotOn) {
  for (std::string realm : std::vector<std::string>{
           "http://169.254.169.254/latest/meta-data", "http://[fe80::1]/token",
           "http://[fd00:ec2::254]/token", "http://metadata.google.internal/computeMetadata/v1/",
           "http://METADATA.google.internal./x", "http://[::ffff:169.254.169.254]/x"}) {
    Hostile h;
    bearer(h, realm, R"({"token":"t"})");
    std::string message = h.refusal("registry.example/app:1");
    EXPECT_NE(message.find("is a link-local address, where cloud metadata services answer"),
              std::string::npos)
        << message;
    for (const auto& s : h.registry.seen) {
      EXPECT_TRUE(s.url.starts_with("https://registry.example/")) << s.url;
    }
  }
}

TEST(HostileRegistry, ARegistryOnALinkLocalAddressIsReached) {
  Hostile h;
  bearer(h, "http://169.254.10.20:5000/token", R"({"token":"t"})");
  EXPECT_EQ(h.resolve("169.254.10.20:5000/app:1", {basic_credential()}).platforms.str(),
            "linux/amd64");
  for (const auto& s : h.registry.seen) {
    EXPECT_TRUE(s.allow_link_local) << s.url;
  }
}

TEST(HostileRegistry, RequestsElsewhereMayNotConnectToLinkLocalAddresses) {
  // A name can resolve to a link-local address: the transport is told.
  Hostile h;
  bearer(h, "https://auth.example/token", R"({"token":"t"})");
  EXPECT_EQ(h.resolve("registry.example/app:1").platforms.str(), "linux/amd64");
  for (const auto& s : h.registry.seen) {
    EXPECT_EQ(s.allow_link_local, s.url.starts_with("https://registry.example/")) << s.url;
  }
}

TEST(HostileRegistry, CredentialsElsewhereMayNotConnectToThisMachine) {
  // A name can resolve to loopback ("vm", "registry.local" in /etc/hosts):
  // credentials going anywhere but the registry's own host and port tell the
  // transport to refuse this machine's addresses; without credentials, or to
  // the registry's own port, nothing is refused.
  struct Row {
    std::string registry;
    std::string realm;
    bool credentials;
    bool allow_loopback;
  };
  for (const Row& row : std::vector<Row>{
           {"vm:5000", "http://vm:6000/token", true, false},
           {"vm:5000", "http://vm:5000/token", true, true},
           {"vm:5000", "http://vm:6000/token", false, true},
           {"registry.example", "https://auth.example/token", true, false},
           {"registry.example", "https://registry.example/token", true, true},
           {"registry.example", "https://auth.example/token", false, true},
       }) {
    Hostile h;
    bearer(h, row.realm, R"({"token":"t"})");
    std::vector<Credential> creds;
    if (row.credentials) creds.push_back(basic_credential());
    EXPECT_EQ(h.resolve(row.registry + "/app:1", creds).platforms.str(), "linux/amd64");
    std::size_t to_realm = 0;
    for (const auto& s : h.registry.seen) {
      if (!s.url.starts_with(row.realm)) {
        EXPECT_TRUE(s.allow_loopback) << s.url;
        continue;
      }
      ++to_realm;
      EXPECT_EQ(s.allow_loopback, row.allow_loopback) << row.registry << " " << row.realm;
    }
    EXPECT_GT(to_realm, 0u) << row.realm;
  }
}

TEST(HostileRegistry, RedirectToALinkLocalAddressIsRefused) {
  Hostile h;
  std::string img = h.registry.add_image("linux", "amd64");
  h.registry.hook = [&](const HttpRequest& r, HttpResponse& out) {
    if (r.url.find("/blobs/") != std::string::npos) {
      out.status = 307;
      out.headers = {{"location", "http://169.254.169.254/latest/meta-data/iam"}};
      return true;
    }
    return false;
  };
  std::string message = h.refusal("registry.example/app@" + img);
  EXPECT_NE(message.find("the redirect to http://169.254.169.254:80 is a link-local address"),
            std::string::npos)
      << message;
  EXPECT_EQ(h.requests_to("http://169.254.169.254"), 0u);
}

TEST(HostileRegistry, RedirectToSomethingOtherThanHttpIsRefused) {
  Hostile h;
  std::string img = h.registry.add_image("linux", "amd64");
  h.registry.hook = [&](const HttpRequest& r, HttpResponse& out) {
    if (r.url.find("/blobs/") != std::string::npos) {
      out.status = 302;
      out.headers = {{"location", "file:///etc/passwd"}};
      return true;
    }
    return false;
  };
  std::string message = h.refusal("registry.example/app@" + img);
  EXPECT_NE(message.find("\"file:///etc/passwd\", which is not an http or https URL"),
            std::string::npos)
      << message;
}

TEST(HostileRegistry, WordsFromTheServerAreEscapedInMessages) {
  Hostile h;
  h.registry.hook = [&](const HttpRequest& r, HttpResponse& out) {
    if (r.url.ends_with("/v2/")) return false;
    out.status = 403;
    out.headers = {{"retry-after", "1\rFAKE: line"}};
    out.body =
        "{\"errors\":[{\"code\":\"DENIED\\u001b[31m\",\"message\":\"go away\\r\\n"
        "archfit: all clear\\u001b]0;title\\u0007\"}]}";
    return true;
  };
  std::string message = h.refusal("registry.example/app:1");
  EXPECT_EQ(message.find_first_of("\r\n\x1b\x07"), std::string::npos) << message;
  EXPECT_NE(message.find("DENIED\\x1b[31m"), std::string::npos) << message;
  EXPECT_NE(message.find("1\\rFAKE: line"), std::string::npos) << message;
}

// JSON nested a million deep would overflow the stack of a recursive parser:
// from a token server, in an error body and as a manifest, it is refused.
TEST(HostileRegistry, DeeplyNestedJsonIsRefusedNotACrash) {
  const std::string deep(1'000'000, '[');
  {
    Hostile h;
    bearer(h, "https://auth.example/token", deep);
    EXPECT_NE(h.refusal("registry.example/app:1").find("not a JSON object"), std::string::npos);
  }
  {
    Hostile h;
    h.registry.hook = [&](const HttpRequest& r, HttpResponse& out) {
      if (r.url.ends_with("/v2/")) return false;
      out.status = 403;
      out.body = deep;
      return true;
    };
    EXPECT_NE(h.refusal("registry.example/app:1").find("403"), std::string::npos);
  }
  {
    Hostile h;
    h.registry.tags["1"] = h.registry.add_manifest("application/vnd.oci.image.index.v1+json", deep);
    std::string message;
    try {
      h.resolve("registry.example/app:1");
    } catch (const Error& e) {
      message = e.what();
    }
    EXPECT_NE(message.find("invalid"), std::string::npos) << message;
  }
}

TEST(HostileRegistry, DescriptorDigestsMustBeDigests) {
  Hostile h;
  std::string amd = h.registry.add_image("linux", "amd64");
  for (std::string digest : std::vector<std::string>{
           "sha256:abc\\r\\nX-Injected: 1", "sha256:../../../v2/other/manifests/x", "md5:0123",
           "sha256:" + std::string(64, 'G')}) {
    h.registry.tags["1"] = h.registry.add_manifest(
        "application/vnd.oci.image.index.v1+json",
        index_of({{digest, R"(,"platform":{"os":"linux","architecture":"amd64"})"}}));
    h.registry.seen.clear();
    std::string message;
    try {
      h.resolve("registry.example/app:1");
    } catch (const Error& e) {
      message = e.what();
    }
    EXPECT_NE(message.find("is not a digest"), std::string::npos) << message;
    for (const auto& s : h.registry.seen) {
      EXPECT_EQ(s.url.find("other"), std::string::npos) << s.url;
    }
  }
  (void)amd;
}

TEST(Destinations, ParseAndClassify) {
  auto d = destination_of("https://User@Registry.Example:8443/v2/?x#y");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->scheme, "https");
  EXPECT_EQ(d->host, "registry.example");
  EXPECT_EQ(d->port, 8443);
  EXPECT_EQ(destination_of("http://[FE80::1]/")->host, "fe80::1");
  EXPECT_EQ(destination_of("http://h")->port, 80);
  EXPECT_FALSE(destination_of("ftp://h/"));
  EXPECT_FALSE(destination_of("http://h:99999/"));
  EXPECT_FALSE(destination_of("http://h/\r\nx"));
  // Read as libcurl reads it, which connects to x for this URL: the check is
  // of where the request goes.
  EXPECT_EQ(destination_of("http:///x")->host, "x");
  EXPECT_FALSE(destination_of("http://"));
  EXPECT_FALSE(destination_of("https://[::1/"));
  EXPECT_TRUE(is_loopback("127.9.9.9"));
  EXPECT_TRUE(is_loopback("::1"));
  EXPECT_TRUE(is_loopback("localhost"));
  EXPECT_TRUE(is_loopback("::ffff:127.0.0.1"));
  // The resolver's short forms and "this network" reach this machine too.
  EXPECT_TRUE(is_loopback("127.1"));
  EXPECT_TRUE(is_loopback("2130706433"));
  EXPECT_TRUE(is_loopback("0x7f.0.0.1"));
  EXPECT_TRUE(is_loopback("0.0.0.0"));
  EXPECT_TRUE(is_loopback("::"));
  EXPECT_TRUE(is_loopback("::ffff:0.0.0.0"));
  EXPECT_FALSE(is_loopback("::2"));
  EXPECT_FALSE(is_loopback("127.example"));
  EXPECT_FALSE(is_loopback("128.0.0.1"));
  EXPECT_TRUE(is_link_local("169.254.0.1"));
  EXPECT_TRUE(is_link_local("febf::1"));
  EXPECT_FALSE(is_link_local("fec0::1"));
  EXPECT_FALSE(is_link_local("169.253.0.1"));
  EXPECT_FALSE(is_link_local("registry.example"));
}

TEST(Destinations, UnusableTokens) {
  EXPECT_EQ(unusable_token("eyJhbGciOi.J9-_~+/="), "");
  EXPECT_NE(unusable_token("a\rb"), "");
  EXPECT_NE(unusable_token("a b"), "");
  EXPECT_NE(unusable_token("\x7f"), "");
  EXPECT_NE(unusable_token(std::string(kMaxTokenBytes + 1, 'a')), "");
}

}  // namespace
}  // namespace archfit::registry
