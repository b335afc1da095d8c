#include <map>
#include <ostream>
#include <string>
#include <unordered_set>

#include <gtest/gtest.h>

#include <archfit/base/error.hpp>
#include <archfit/image/reference.hpp>

#include "support/param_name.hpp"

namespace archfit::image {
namespace {

using archfit::testing::param_name;

const std::string kHex64 = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
const std::string kSha256 = "sha256:" + kHex64;
const std::string kSha512 = "sha512:" + kHex64 + kHex64;

struct Good {
  std::string input;
  std::string registry;
  std::string repository;
  std::string tag;
  std::string digest;
  std::string canonical;
  std::string familiar;
};

// Failures print the input rather than the bytes of the row.
void PrintTo(const Good& c, std::ostream* os) {
  *os << c.input;
}

class ReferenceParseGood : public ::testing::TestWithParam<Good> {};

TEST_P(ReferenceParseGood, FieldsCanonicalAndRoundTrips) {
  const Good& c = GetParam();
  Reference ref = Reference::parse(c.input);
  EXPECT_EQ(ref.registry(), c.registry);
  EXPECT_EQ(ref.repository(), c.repository);
  EXPECT_EQ(ref.tag(), c.tag);
  EXPECT_EQ(ref.digest(), c.digest);
  EXPECT_EQ(ref.canonical(), c.canonical);
  EXPECT_EQ(ref.familiar(), c.familiar);
  EXPECT_EQ(ref.original(), c.input);
  EXPECT_EQ(ref.name(), c.registry + "/" + c.repository);
  EXPECT_EQ(ref.has_digest(), !c.digest.empty());

  // Every printed form reads back as the same image.
  Reference again = Reference::parse(ref.canonical());
  EXPECT_EQ(again.canonical(), c.canonical);
  EXPECT_EQ(again, ref);
  if (!c.tag.empty() || !c.digest.empty()) {
    EXPECT_EQ(Reference::parse(ref.familiar()), ref) << ref.familiar();
  }
  Reference by_name = Reference::parse(ref.name());
  EXPECT_EQ(by_name.registry(), c.registry);
  EXPECT_EQ(by_name.repository(), c.repository);
}

INSTANTIATE_TEST_SUITE_P(
    Rows, ReferenceParseGood,
    ::testing::Values(
        // Docker Hub short names
        Good{"nginx", "docker.io", "library/nginx", "", "", "docker.io/library/nginx:latest",
             "nginx"},
        Good{"redis", "docker.io", "library/redis", "", "", "docker.io/library/redis:latest",
             "redis"},
        Good{"nginx:1.25", "docker.io", "library/nginx", "1.25", "", "docker.io/library/nginx:1.25",
             "nginx:1.25"},
        Good{"library/nginx:1.25", "docker.io", "library/nginx", "1.25", "",
             "docker.io/library/nginx:1.25", "nginx:1.25"},
        Good{"docker.io/nginx", "docker.io", "library/nginx", "", "",
             "docker.io/library/nginx:latest", "nginx"},
        Good{"docker.io/library/nginx:1.25", "docker.io", "library/nginx", "1.25", "",
             "docker.io/library/nginx:1.25", "nginx:1.25"},
        Good{"bitnami/redis", "docker.io", "bitnami/redis", "", "",
             "docker.io/bitnami/redis:latest", "bitnami/redis"},
        Good{"docker.io/bitnami/redis:7.2", "docker.io", "bitnami/redis", "7.2", "",
             "docker.io/bitnami/redis:7.2", "bitnami/redis:7.2"},
        Good{"a/b/c/d", "docker.io", "a/b/c/d", "", "", "docker.io/a/b/c/d:latest", "a/b/c/d"},
        // a nested path under library/ keeps the prefix when printed, as docker does
        Good{"docker.io/library/a/b", "docker.io", "library/a/b", "", "",
             "docker.io/library/a/b:latest", "library/a/b"},
        // index.docker.io is docker.io; registry-1.docker.io is a host of its own
        Good{"index.docker.io/nginx:1.25", "docker.io", "library/nginx", "1.25", "",
             "docker.io/library/nginx:1.25", "nginx:1.25"},
        Good{"index.docker.io/bitnami/redis", "docker.io", "bitnami/redis", "", "",
             "docker.io/bitnami/redis:latest", "bitnami/redis"},
        Good{"registry-1.docker.io/library/nginx:1.25", "registry-1.docker.io", "library/nginx",
             "1.25", "", "registry-1.docker.io/library/nginx:1.25",
             "registry-1.docker.io/library/nginx:1.25"},
        // other registries
        Good{"ghcr.io/x/y:1", "ghcr.io", "x/y", "1", "", "ghcr.io/x/y:1", "ghcr.io/x/y:1"},
        Good{"quay.io/prometheus/node-exporter", "quay.io", "prometheus/node-exporter", "", "",
             "quay.io/prometheus/node-exporter:latest", "quay.io/prometheus/node-exporter"},
        Good{"registry.k8s.io/pause:3.9", "registry.k8s.io", "pause", "3.9", "",
             "registry.k8s.io/pause:3.9", "registry.k8s.io/pause:3.9"},
        Good{"localhost/app", "localhost", "app", "", "", "localhost/app:latest", "localhost/app"},
        Good{"localhost:5000/app:dev", "localhost:5000", "app", "dev", "", "localhost:5000/app:dev",
             "localhost:5000/app:dev"},
        Good{"host:5000/a/b", "host:5000", "a/b", "", "", "host:5000/a/b:latest", "host:5000/a/b"},
        Good{"127.0.0.1:5000/team/app:v1", "127.0.0.1:5000", "team/app", "v1", "",
             "127.0.0.1:5000/team/app:v1", "127.0.0.1:5000/team/app:v1"},
        Good{"registry.example.com:443/team/app:1.0", "registry.example.com:443", "team/app", "1.0",
             "", "registry.example.com:443/team/app:1.0", "registry.example.com:443/team/app:1.0"},
        Good{"[::1]:5000/x", "[::1]:5000", "x", "", "", "[::1]:5000/x:latest", "[::1]:5000/x"},
        Good{"[2001:db8::1]/team/app:1", "[2001:db8::1]", "team/app", "1", "",
             "[2001:db8::1]/team/app:1", "[2001:db8::1]/team/app:1"},
        Good{"xn--bcher-kva.example/app", "xn--bcher-kva.example", "app", "", "",
             "xn--bcher-kva.example/app:latest", "xn--bcher-kva.example/app"},
        // uppercase marks a registry host, where it is allowed and kept
        Good{"Example.COM/app", "Example.COM", "app", "", "", "Example.COM/app:latest",
             "Example.COM/app"},
        Good{"MyRegistry/app:1", "MyRegistry", "app", "1", "", "MyRegistry/app:1",
             "MyRegistry/app:1"},
        // separators inside path components
        Good{"quay.io/a_b/c__d/e--f:tag", "quay.io", "a_b/c__d/e--f", "tag", "",
             "quay.io/a_b/c__d/e--f:tag", "quay.io/a_b/c__d/e--f:tag"},
        Good{"gcr.io/a.b-c/d---e_f", "gcr.io", "a.b-c/d---e_f", "", "",
             "gcr.io/a.b-c/d---e_f:latest", "gcr.io/a.b-c/d---e_f"},
        Good{"my-org/my.app_2", "docker.io", "my-org/my.app_2", "", "",
             "docker.io/my-org/my.app_2:latest", "my-org/my.app_2"},
        // tags
        Good{"nginx:v1.2.3-rc.1", "docker.io", "library/nginx", "v1.2.3-rc.1", "",
             "docker.io/library/nginx:v1.2.3-rc.1", "nginx:v1.2.3-rc.1"},
        Good{"nginx:_private", "docker.io", "library/nginx", "_private", "",
             "docker.io/library/nginx:_private", "nginx:_private"},
        Good{"nginx:Latest", "docker.io", "library/nginx", "Latest", "",
             "docker.io/library/nginx:Latest", "nginx:Latest"},
        Good{"app:" + std::string(128, 'a'), "docker.io", "library/app", std::string(128, 'a'), "",
             "docker.io/library/app:" + std::string(128, 'a'), "app:" + std::string(128, 'a')},
        // digests
        Good{"nginx@" + kSha256, "docker.io", "library/nginx", "", kSha256,
             "docker.io/library/nginx@" + kSha256, "nginx@" + kSha256},
        Good{"nginx:1.25@" + kSha256, "docker.io", "library/nginx", "1.25", kSha256,
             "docker.io/library/nginx:1.25@" + kSha256, "nginx:1.25@" + kSha256},
        Good{"localhost:5000/app@" + kSha256, "localhost:5000", "app", "", kSha256,
             "localhost:5000/app@" + kSha256, "localhost:5000/app@" + kSha256},
        Good{"ghcr.io/x/y@" + kSha512, "ghcr.io", "x/y", "", kSha512, "ghcr.io/x/y@" + kSha512,
             "ghcr.io/x/y@" + kSha512},
        Good{"ghcr.io/x/y@blake3:" + kHex64, "ghcr.io", "x/y", "", "blake3:" + kHex64,
             "ghcr.io/x/y@blake3:" + kHex64, "ghcr.io/x/y@blake3:" + kHex64},
        Good{"ghcr.io/x/y@sha3-256:" + kHex64.substr(0, 32), "ghcr.io", "x/y", "",
             "sha3-256:" + kHex64.substr(0, 32), "ghcr.io/x/y@sha3-256:" + kHex64.substr(0, 32),
             "ghcr.io/x/y@sha3-256:" + kHex64.substr(0, 32)},
        // lengths at the limit: 255 characters of repository path, "library/" included
        Good{"ghcr.io/" + std::string(255, 'a'), "ghcr.io", std::string(255, 'a'), "", "",
             "ghcr.io/" + std::string(255, 'a') + ":latest", "ghcr.io/" + std::string(255, 'a')},
        Good{std::string(247, 'b'), "docker.io", "library/" + std::string(247, 'b'), "", "",
             "docker.io/library/" + std::string(247, 'b') + ":latest", std::string(247, 'b')},
        // docker's reading of a lone host-looking word: a Docker Hub name with a tag
        Good{"localhost:5000", "docker.io", "library/localhost", "5000", "",
             "docker.io/library/localhost:5000", "localhost:5000"},
        Good{"ghcr.io", "docker.io", "library/ghcr.io", "", "", "docker.io/library/ghcr.io:latest",
             "ghcr.io"}),
    [](const auto& test) { return param_name(test.param.input, test.index); });

struct Bad {
  std::string input;
  std::string rule;  // a substring of the message after 'invalid image reference "...": '
};

void PrintTo(const Bad& c, std::ostream* os) {
  *os << c.input;
}

class ReferenceParseBad : public ::testing::TestWithParam<Bad> {};

TEST_P(ReferenceParseBad, QuotesInputAndNamesRule) {
  const Bad& c = GetParam();
  std::string why;
  EXPECT_FALSE(Reference::try_parse(c.input, &why).has_value());
  EXPECT_EQ(why.rfind("invalid image reference \"", 0), 0u) << why;
  EXPECT_NE(why.find(c.rule), std::string::npos) << why;
  try {
    Reference::parse(c.input);
    ADD_FAILURE() << "parse accepted " << c.input;
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Input);
    EXPECT_EQ(e.message(), why);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Rows, ReferenceParseBad,
    ::testing::Values(
        Bad{"", "reference is empty"}, Bad{"Nginx:1.25", "repository name must be lowercase"},
        Bad{"ghcr.io/x/Y", "repository name must be lowercase"},
        Bad{"docker.io/Library/nginx", "repository name must be lowercase"},
        Bad{"nginx:", "tag is empty"}, Bad{":tag", "image name is empty"},
        Bad{"@" + kSha256, "image name is empty"},
        Bad{"nginx:" + std::string(129, 'a'), "tag is longer than 128 characters (129)"},
        Bad{"nginx:.hidden", "must start with a letter, digit or '_'"},
        Bad{"nginx:-rc", "must start with a letter, digit or '_'"},
        Bad{"nginx:a+b", "may contain only letters, digits, '_', '.' and '-'"},
        // digests
        Bad{"nginx@", "digest after '@' is empty"}, Bad{"nginx@sha256", "must be algorithm:hex"},
        Bad{"nginx@sha256:abc", "sha256 digest must have 64 hex digits, not 3"},
        Bad{"nginx@sha256:" + kHex64.substr(1), "sha256 digest must have 64 hex digits, not 63"},
        Bad{"nginx@sha256:" + kHex64 + "0", "sha256 digest must have 64 hex digits, not 65"},
        Bad{"nginx@sha256:" + std::string(64, 'A'), "sha256 digest must be lowercase hex"},
        Bad{"nginx@sha256:" + std::string(64, 'g'), "sha256 digest must be lowercase hex"},
        Bad{"nginx@sha512:" + kHex64, "sha512 digest must have 128 hex digits, not 64"},
        Bad{"nginx@Sha256:" + kHex64, "digest algorithm \"Sha256\" must be lowercase"},
        Bad{"nginx@sha256-:" + kHex64, "digest algorithm"},
        Bad{"nginx@md5:abcdef", "at least 32 hex digits, not 6"},
        Bad{"nginx@foo:" + std::string(32, 'z'), "must be hex after the ':'"},
        Bad{"nginx@" + kSha256 + "@" + kSha256, "sha256 digest must have 64 hex digits"},
        // unrendered templates
        Bad{"${IMAGE}", "unrendered template placeholder"},
        Bad{"<image_url>", "unrendered template placeholder"},
        Bad{"{{ .Values.image }}", "unrendered template placeholder"},
        Bad{"repo/app:${TAG}", "unrendered template placeholder"},
        Bad{"$(IMAGE)", "unrendered template placeholder"},
        // paths
        Bad{"a//b", "has an empty component"}, Bad{"nginx/", "has an empty component"},
        Bad{"/nginx", "has an empty component"}, Bad{"ghcr.io/x//y", "has an empty component"},
        Bad{"ghcr.io/", "repository path is empty"},
        Bad{"ghcr.io/" + std::string(256, 'a'), "longer than 255 characters (256)"},
        Bad{std::string(248, 'b'), "longer than 255 characters (256)"},
        Bad{"-nginx", "path component \"-nginx\""}, Bad{"nginx-", "path component \"nginx-\""},
        Bad{"a___b", "path component \"a___b\""}, Bad{"a..b", "path component \"a..b\""},
        Bad{"a._b", "path component \"a._b\""}, Bad{"ghcr.io/x/.y", "path component \".y\""},
        Bad{"nginx:1.25:extra", "path component \"nginx:1.25\""},
        // surface
        Bad{" nginx", "leading or trailing whitespace"},
        Bad{"nginx ", "leading or trailing whitespace"},
        Bad{"nginx\n", "leading or trailing whitespace"},
        Bad{"ngi nx", "must not contain whitespace"},
        Bad{"ghcr.io/x/caf\xc3\xa9", "path component \"caf\xc3\xa9\""},
        Bad{"nginx:v\xc3\xa9", "may contain only letters"}, Bad{"ngi\x01nx", "control characters"},
        Bad{"https://ghcr.io/x/y",
            "must not include a URL scheme (\"https://\"); write the registry host without it: "
            "\"ghcr.io/x/y\""},
        Bad{"http://localhost:5000/x", "URL scheme (\"http://\")"},
        Bad{"docker://nginx", "URL scheme"}, Bad{kHex64, "is an image ID, not a reference"},
        // registries
        Bad{"[fe80::1%eth0]:5000/x", "IPv6 zone identifier"},
        Bad{"[::1]", "must be followed by a repository path"},
        Bad{"[::1]:5000", "must be followed by a repository path"},
        Bad{"[::1:5000/x", "has no closing ']'"},
        Bad{"[zz::1]/x", "not a valid bracketed IPv6 address"},
        Bad{"[1]/x", "not a valid bracketed IPv6 address"},
        Bad{"[::1]x/y", "text after ']' that is not a port"},
        Bad{"host:abc/x", "registry port \"abc\" must be a number"},
        Bad{"host:/x", "has an empty port"}, Bad{"host:99999/x", "must be between 1 and 65535"},
        Bad{"host:0/x", "must be between 1 and 65535"}, Bad{"host:5000:1/x", "must be a number"},
        Bad{":5000/x", "has an empty host"}, Bad{"-bad.com/x", "not a valid host name"},
        Bad{"bad-.com/x", "not a valid host name"}, Bad{"bad..com/x", "not a valid host name"},
        Bad{"bad_host.com/x", "not a valid host name"}, Bad{".com/x", "not a valid host name"}),
    [](const auto& test) { return param_name(test.param.input, test.index); });

TEST(Reference, ExactMessages) {
  auto message = [](std::string_view input) {
    std::string why;
    Reference::try_parse(input, &why);
    return why;
  };
  EXPECT_EQ(message("Nginx:1.25"),
            "invalid image reference \"Nginx:1.25\": repository name must be lowercase");
  EXPECT_EQ(message("nginx:"), "invalid image reference \"nginx:\": tag is empty");
  EXPECT_EQ(message("a//b"),
            "invalid image reference \"a//b\": repository path \"a//b\" has an empty component "
            "('//', or '/' at the start or end)");
  EXPECT_EQ(message("\tnginx"),
            "invalid image reference \"\\tnginx\": has leading or trailing whitespace");
}

TEST(Reference, TryParseWithoutWhy) {
  EXPECT_FALSE(Reference::try_parse("Nginx").has_value());
  EXPECT_TRUE(Reference::try_parse("nginx").has_value());
}

TEST(Reference, ApiHost) {
  EXPECT_EQ(Reference::parse("nginx").api_host(), "registry-1.docker.io");
  EXPECT_EQ(Reference::parse("index.docker.io/x/y").api_host(), "registry-1.docker.io");
  EXPECT_EQ(Reference::parse("ghcr.io/x/y").api_host(), "ghcr.io");
  EXPECT_EQ(Reference::parse("localhost:5000/y").api_host(), "localhost:5000");
  EXPECT_EQ(Reference::parse("[::1]:5000/y").api_host(), "[::1]:5000");
  EXPECT_TRUE(Reference::parse("nginx").is_docker_hub());
  EXPECT_FALSE(Reference::parse("registry-1.docker.io/library/nginx").is_docker_hub());
}

TEST(Reference, PullRefPrefersDigest) {
  EXPECT_EQ(Reference::parse("nginx").pull_ref(), "latest");
  EXPECT_EQ(Reference::parse("nginx:1.25").pull_ref(), "1.25");
  EXPECT_EQ(Reference::parse("nginx@" + kSha256).pull_ref(), kSha256);
  EXPECT_EQ(Reference::parse("nginx:1.25@" + kSha256).pull_ref(), kSha256);
}

TEST(Reference, SpellingsOfOneImageAreEqual) {
  const char* spellings[] = {"nginx",
                             "nginx:latest",
                             "library/nginx",
                             "docker.io/nginx",
                             "docker.io/library/nginx:latest",
                             "index.docker.io/library/nginx"};
  Reference first = Reference::parse(spellings[0]);
  for (const char* spelling : spellings) {
    EXPECT_EQ(Reference::parse(spelling), first) << spelling;
    EXPECT_EQ(std::hash<Reference>{}(Reference::parse(spelling)), std::hash<Reference>{}(first));
  }
  EXPECT_NE(Reference::parse("nginx:1.25"), first);
  EXPECT_NE(Reference::parse("nginx@" + kSha256), first);
  EXPECT_NE(Reference::parse("nginx:latest@" + kSha256), Reference::parse("nginx@" + kSha256));
  EXPECT_NE(Reference::parse("registry-1.docker.io/library/nginx"), first);
}

TEST(Reference, MapKeysOrderByCanonical) {
  std::map<Reference, int> seen;
  for (const char* text : {"redis", "nginx:1.25", "docker.io/library/nginx:1.25", "ghcr.io/a/b",
                           "docker.io/redis:latest"}) {
    ++seen[Reference::parse(text)];
  }
  ASSERT_EQ(seen.size(), 3u);
  auto it = seen.begin();
  EXPECT_EQ(it->first.canonical(), "docker.io/library/nginx:1.25");
  EXPECT_EQ(it->second, 2);
  ++it;
  EXPECT_EQ(it->first.canonical(), "docker.io/library/redis:latest");
  EXPECT_EQ(it->second, 2);
  ++it;
  EXPECT_EQ(it->first.canonical(), "ghcr.io/a/b:latest");
  EXPECT_LT(Reference::parse("a"), Reference::parse("b"));

  std::unordered_set<Reference> unique{Reference::parse("nginx"), Reference::parse("nginx:latest")};
  EXPECT_EQ(unique.size(), 1u);
}

TEST(Reference, OriginalKeepsTheTextAsWritten) {
  Reference ref = Reference::parse("index.docker.io/nginx");
  EXPECT_EQ(ref.original(), "index.docker.io/nginx");
  EXPECT_EQ(ref.canonical(), "docker.io/library/nginx:latest");
}

}  // namespace
}  // namespace archfit::image
