#include <gtest/gtest.h>

#include <archfit/registry/protocol/challenge.hpp>

namespace archfit::registry {
namespace {

TEST(Challenges, DockerHubBearer) {
  auto cs = parse_challenges(
      {R"(Bearer realm="https://auth.docker.io/token",service="registry.docker.io",scope="repository:library/nginx:pull")"});
  ASSERT_EQ(cs.size(), 1u);
  EXPECT_EQ(cs[0].scheme, "bearer");
  EXPECT_EQ(cs[0].param("realm"), "https://auth.docker.io/token");
  EXPECT_EQ(cs[0].param("service"), "registry.docker.io");
  EXPECT_EQ(cs[0].param("scope"), "repository:library/nginx:pull");
  EXPECT_EQ(cs[0].param("error"), "");
}

TEST(Challenges, QuotedCommasEscapesAndSpaces) {
  auto cs = parse_challenges(
      {R"(Bearer realm = "https://a.example/t?x=1,y=2" , scope="repository:a:pull,push",  error=insufficient_scope, note="say \"hi\" \\ ok")"});
  ASSERT_EQ(cs.size(), 1u);
  EXPECT_EQ(cs[0].param("realm"), "https://a.example/t?x=1,y=2");
  EXPECT_EQ(cs[0].param("scope"), "repository:a:pull,push");
  EXPECT_EQ(cs[0].param("error"), "insufficient_scope");
  EXPECT_EQ(cs[0].param("note"), R"(say "hi" \ ok)");
}

TEST(Challenges, SeveralInOneHeaderAndAcrossHeaders) {
  auto cs = parse_challenges({R"(Basic realm="r1", Bearer realm="https://t", service="s")",
                              R"(Negotiate abc==, Basic realm="second")"});
  ASSERT_EQ(cs.size(), 4u);
  EXPECT_EQ(cs[0].scheme, "basic");
  EXPECT_EQ(cs[0].param("realm"), "r1");
  EXPECT_EQ(cs[1].scheme, "bearer");
  EXPECT_EQ(cs[1].param("service"), "s");
  EXPECT_EQ(cs[2].scheme, "negotiate");
  EXPECT_EQ(cs[2].token68, "abc==");
  EXPECT_EQ(cs[3].param("realm"), "second");
  ASSERT_NE(find_challenge(cs, "bearer"), nullptr);
  EXPECT_EQ(find_challenge(cs, "bearer")->param("realm"), "https://t");
  EXPECT_EQ(find_challenge(cs, "digest"), nullptr);
}

TEST(Challenges, SchemeCaseAndMissingService) {
  auto cs = parse_challenges({R"(BEARER Realm="https://t")"});
  ASSERT_EQ(cs.size(), 1u);
  EXPECT_EQ(cs[0].scheme, "bearer");
  EXPECT_EQ(cs[0].param("realm"), "https://t");
  EXPECT_EQ(cs[0].params.count("service"), 0u);
}

TEST(Challenges, MalformedPartsAreSkipped) {
  auto cs = parse_challenges({"", ",,,", R"(=x, Bearer realm="https://t", "junk")"});
  ASSERT_EQ(cs.size(), 1u);
  EXPECT_EQ(cs[0].param("realm"), "https://t");
  // An unterminated quote keeps what it has.
  auto open = parse_challenges({R"(Bearer realm="https://t)"});
  ASSERT_EQ(open.size(), 1u);
  EXPECT_EQ(open[0].param("realm"), "https://t");
}

}  // namespace
}  // namespace archfit::registry
