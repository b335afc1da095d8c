// Pull secrets: their JSON read into credentials, and matched against images
// the way kubelet matches them.
#include <gtest/gtest.h>

#include <archfit/base/error.hpp>
#include <archfit/image/reference.hpp>
#include <archfit/registry/credentials/pull_secrets.hpp>

#include "unit/registry/credentials/registry_fakes.hpp"

namespace archfit::registry {
namespace {

using registry::testing::basic_auth;

PullSecretAuths secret_with(std::vector<std::string> keys, const std::string& name = "ns/s") {
  PullSecretAuths s;
  s.secret = name;
  for (std::string& key : keys) {
    Credential c;
    c.username = key;  // which key matched, for the assertions
    c.password = "pw";
    c.source = "pull secret " + name;
    s.entries.push_back(AuthEntry{std::move(key), std::move(c)});
  }
  return s;
}

std::vector<std::string> matched(const std::vector<PullSecretAuths>& secrets, const char* image) {
  std::vector<std::string> keys;
  for (const Credential& c : match_pull_secrets(secrets, image::Reference::parse(image)))
    keys.push_back(c.username);
  return keys;
}

TEST(PullSecretMatch, KubeletRules) {
  struct Row {
    const char* key;
    const char* image;
    bool match;
  };
  const Row rows[] = {
      // Hosts, schemes and trailing slashes.
      {"ghcr.io", "ghcr.io/org/app:1", true},
      {"https://ghcr.io", "ghcr.io/org/app", true},
      {"http://ghcr.io/", "ghcr.io/org/app", true},
      {"https://ghcr.io/v2/", "ghcr.io/org/app", true},
      {"ghcr.io", "quay.io/org/app", false},
      {"gcr.io", "us.gcr.io/p/app", false},
      // Globs match one host label each.
      {"*.gcr.io", "us.gcr.io/p/app", true},
      {"*.example.com", "a.example.com/app", true},
      {"*.example.com", "example.com/app", false},
      {"*.example.com", "a.b.example.com/app", false},
      {"*.*.example.com", "a.b.example.com/app", true},
      {"*.azurecr.io", "myreg.azurecr.io/app", true},
      {"reg-*.example.com", "reg-eu.example.com/app", true},
      {"reg-*.example.com", "cache.example.com/app", false},
      {"reg?.example.com", "reg1.example.com/app", true},
      {"reg?.example.com", "reg12.example.com/app", false},
      {"reg[0-9].example.com", "reg7.example.com/app", true},
      {"reg[^0-9].example.com", "reg7.example.com/app", false},
      {"*", "localhost/app", true},
      {"*", "ghcr.io/app", false},
      // Ports must match.
      {"localhost:5000", "localhost:5000/app", true},
      {"localhost", "localhost:5000/app", false},
      {"localhost:5000", "localhost/app", false},
      {"localhost:5001", "localhost:5000/app", false},
      {"http://localhost:5000/", "localhost:5000/app", true},
      {"*.example.com:8443", "r.example.com:8443/app", true},
      {"[::1]:5000", "[::1]:5000/app", true},
      // A path is a prefix of the repository, on '/' boundaries.
      {"quay.io/coreos", "quay.io/coreos/etcd", true},
      {"https://quay.io/coreos/", "quay.io/coreos/etcd", true},
      {"quay.io/coreos/etcd", "quay.io/coreos/etcd:v3", true},
      {"quay.io/coreos", "quay.io/coreosx/etcd", false},
      {"quay.io/coreos/etcd", "quay.io/coreos/etc", false},
      {"quay.io/other", "quay.io/coreos/etcd", false},
      {"https://quay.io/v1/coreos", "quay.io/coreos/etcd", true},
      // Docker Hub, under each of its names.
      {"https://index.docker.io/v1/", "nginx", true},
      {"https://index.docker.io/v1/", "docker.io/library/nginx:1.25", true},
      {"index.docker.io", "bitnami/redis", true},
      {"docker.io", "nginx", true},
      {"registry-1.docker.io", "nginx", true},
      {"docker.io/bitnami", "bitnami/redis", true},
      {"docker.io/bitnami", "nginx", false},
      {"*.docker.io", "nginx", false},
      {"https://index.docker.io/v1/", "ghcr.io/org/app", false},
      {"docker.io", "docker.io.example.com/app", false},
      // Host names compare without regard to case.
      {"GHCR.IO", "ghcr.io/org/app", true},
  };
  for (const Row& row : rows) {
    EXPECT_EQ(matched({secret_with({row.key})}, row.image).size(), row.match ? 1u : 0u)
        << row.key << " vs " << row.image;
  }
}

TEST(PullSecretMatch, MostSpecificFirst) {
  std::vector<PullSecretAuths> secrets = {
      secret_with({"quay.io", "*.quay.io", "quay.io/org"}, "ns/one"),
      secret_with({"quay.io/org/team", "https://quay.io/"}, "ns/two"),
  };
  EXPECT_EQ(
      matched(secrets, "quay.io/org/team/app"),
      (std::vector<std::string>{"quay.io/org/team", "quay.io/org", "quay.io", "https://quay.io/"}));
  EXPECT_EQ(matched(secrets, "quay.io/other/app"),
            (std::vector<std::string>{"quay.io", "https://quay.io/"}));
  EXPECT_EQ(matched(secrets, "eu.quay.io/x/y"), (std::vector<std::string>{"*.quay.io"}));
  std::vector<PullSecretAuths> globs = {secret_with({"*.example.com", "a.example.com"})};
  EXPECT_EQ(matched(globs, "a.example.com/x"),
            (std::vector<std::string>{"a.example.com", "*.example.com"}));
  EXPECT_TRUE(matched(secrets, "ghcr.io/x").empty());
}

TEST(PullSecretMatch, CredentialsNameTheirSecret) {
  std::vector<Credential> found = match_pull_secrets(
      {secret_with({"ghcr.io"}, "shop/one"), secret_with({"ghcr.io"}, "shop/two")},
      image::Reference::parse("ghcr.io/org/app"));
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].source, "pull secret shop/one");
  EXPECT_EQ(found[1].source, "pull secret shop/two");
}

TEST(ParsePullSecret, DockerConfigJson) {
  PullSecretAuths s = parse_pull_secret(R"({"auths": {
      "ghcr.io": {"auth": ")" + basic_auth("robot", "ghp:x") +
                                            R"("},
      "https://index.docker.io/v1/": {"username": "hub", "password": "pw", "email": "a@b.c"},
      "quay.io": {}}})",
                                        "shop/regcred", false);
  EXPECT_EQ(s.secret, "shop/regcred");
  ASSERT_EQ(s.entries.size(), 2u);  // quay.io has no credentials
  EXPECT_EQ(s.entries[0].key, "ghcr.io");
  EXPECT_EQ(s.entries[0].credential.username, "robot");
  EXPECT_EQ(s.entries[0].credential.password, "ghp:x");
  EXPECT_EQ(s.entries[0].credential.source, "pull secret shop/regcred");
  EXPECT_EQ(s.entries[1].key, "https://index.docker.io/v1/");
  EXPECT_EQ(s.entries[1].credential.username, "hub");
  EXPECT_EQ(match_pull_secrets({s}, image::Reference::parse("nginx")).size(), 1u);
}

TEST(ParsePullSecret, LegacyDockercfgIsTheAuthsMapItself) {
  PullSecretAuths s = parse_pull_secret(
      R"({"ghcr.io": {"auth": ")" + basic_auth("old", "pw") + R"(", "email": "x@y.z"}})",
      "default/old", true);
  ASSERT_EQ(s.entries.size(), 1u);
  EXPECT_EQ(s.entries[0].credential.username, "old");
  // The same text read as .dockerconfigjson has no "auths": nothing.
  EXPECT_TRUE(parse_pull_secret(R"({"ghcr.io": {"username": "u", "password": "p"}})", "d/n", false)
                  .entries.empty());
}

TEST(ParsePullSecret, ErrorsNameTheSecret) {
  struct Row {
    std::string json;
    bool legacy;
    std::string message;
  };
  const Row rows[] = {
      {"{", false, "pull secret shop/regcred: invalid JSON: missing a name for object member"},
      {"", false, "pull secret shop/regcred: invalid JSON: the document is empty"},
      {R"({"auths": "x"})", false,
       "pull secret shop/regcred: auths: expected an object of registry -> auth, got a string"},
      {R"({"auths": {"ghcr.io": {"auth": "not*base64"}}})", false,
       "pull secret shop/regcred: auths.\"ghcr.io\".auth: not valid base64; write base64 of "
       "\"user:password\""},
      {R"({"ghcr.io": {"auth": "bm9jb2xvbg=="}})", true,
       "pull secret shop/regcred: \"ghcr.io\".auth: expected base64 of \"user:password\", but the "
       "decoded text has no ':'"},
      {R"([])", true,
       "pull secret shop/regcred: the document: expected an object of registry -> auth, got an "
       "array"},
  };
  for (const Row& row : rows) {
    try {
      parse_pull_secret(row.json, "shop/regcred", row.legacy);
      ADD_FAILURE() << "no error for " << row.json;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Input);
      EXPECT_EQ(std::string(e.what()), row.message);
    }
  }
}

}  // namespace
}  // namespace archfit::registry
