#include "registry/transport/url.hpp"

#include <gtest/gtest.h>

namespace archfit::registry {
namespace {

TEST(Url, Origins) {
  EXPECT_EQ(origin_of("https://Registry.Example:443/v2/x"), "https://registry.example");
  EXPECT_EQ(origin_of("http://127.0.0.1:80/a"), "http://127.0.0.1");
  EXPECT_EQ(origin_of("http://127.0.0.1:5000/a?b"), "http://127.0.0.1:5000");
  EXPECT_EQ(origin_of("https://user@host:8443"), "https://host:8443");
  EXPECT_EQ(origin_of("/relative"), "");
  EXPECT_NE(origin_of("http://127.0.0.1:5000/"), origin_of("http://127.0.0.1:5001/"));
  EXPECT_EQ(host_of("https://[::1]:5000/v2/"), "[::1]:5000");
}

TEST(Url, RedirectTargets) {
  const std::string base = "https://r.example/v2/app/blobs/sha256:1?x=1";
  EXPECT_EQ(resolve_location(base, "https://s3.example/b?sig=1"), "https://s3.example/b?sig=1");
  EXPECT_EQ(resolve_location(base, "//cdn.example/b"), "https://cdn.example/b");
  EXPECT_EQ(resolve_location(base, "/other/path"), "https://r.example/other/path");
  EXPECT_EQ(resolve_location(base, "sibling"), "https://r.example/v2/app/blobs/sibling");
}

TEST(Url, QueriesAfterTheURLsOwn) {
  EXPECT_EQ(with_query("https://auth.example/token", "scope=a%3Ab"),
            "https://auth.example/token?scope=a%3Ab");
  EXPECT_EQ(with_query("https://auth.example/token?service=r#f", "scope=a"),
            "https://auth.example/token?service=r&scope=a");
  EXPECT_EQ(with_query("not a url", "scope=a"), "");
}

// What archfit checks of a URL is what libcurl connects to: the same parser.
TEST(Url, PartsAsLibcurlReadsThem) {
  auto parts = url_parts("HTTPS://user:pw@[::1]:5000/v2/");
  ASSERT_TRUE(parts);
  EXPECT_EQ(parts->scheme, "https");
  EXPECT_EQ(parts->host, "::1");
  EXPECT_EQ(parts->port, 5000);
  EXPECT_EQ(url_parts("http://registry.example/")->port, 80);
  EXPECT_EQ(url_parts("https://registry.example/")->port, 443);
  EXPECT_FALSE(url_parts("registry.example/v2/"));
}

TEST(Url, RedactionAndFormEncoding) {
  EXPECT_EQ(redact_url("https://s3.example/b?X-Amz-Signature=secret#f"), "https://s3.example/b");
  EXPECT_EQ(form_encode("repository:a/b:pull"), "repository%3Aa%2Fb%3Apull");
  EXPECT_EQ(form_encode("a b+c~"), "a%20b%2Bc~");
}

}  // namespace
}  // namespace archfit::registry
