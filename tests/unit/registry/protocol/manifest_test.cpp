#include <gtest/gtest.h>

#include <archfit/base/error.hpp>
#include <archfit/registry/protocol/digest.hpp>
#include <archfit/registry/protocol/manifest.hpp>

namespace archfit::registry {
namespace {

TEST(Manifest, OciIndexWithAttestationsAndVariants) {
  std::string body = R"({"schemaVersion":2,"mediaType":"application/vnd.oci.image.index.v1+json",
    "manifests":[
     {"mediaType":"application/vnd.oci.image.manifest.v1+json","digest":"sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","size":1,
      "platform":{"os":"linux","architecture":"arm64","variant":"v8"}},
     {"mediaType":"application/vnd.oci.image.manifest.v1+json","digest":"sha256:bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb","size":1,
      "platform":{"os":"linux","architecture":"arm"}},
     {"mediaType":"application/vnd.oci.image.manifest.v1+json","digest":"sha256:cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc","size":1,
      "platform":{"os":"unknown","architecture":"unknown"},
      "annotations":{"vnd.docker.reference.type":"attestation-manifest"}},
     {"mediaType":"application/vnd.oci.image.manifest.v1+json","digest":"sha256:dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd","size":1,
      "platform":{"os":"windows","architecture":"amd64","os.version":"10.0.17763.1"}}]})";
  Manifest m = parse_manifest(body, "", "img");
  EXPECT_EQ(m.kind, Manifest::Kind::Index);
  ASSERT_EQ(m.entries.size(), 4u);
  EXPECT_EQ(m.entries[0].platform->str(), "linux/arm64");
  EXPECT_EQ(m.entries[1].platform->str(), "linux/arm/v7");
  EXPECT_TRUE(m.entries[2].attestation);
  EXPECT_FALSE(m.entries[2].platform.has_value());
  EXPECT_EQ(m.entries[3].platform->os_version, "10.0.17763.1");
}

TEST(Manifest, MediaTypeFromContentTypeOrGuessed) {
  std::string image =
      R"({"schemaVersion":2,"config":{"mediaType":"application/vnd.oci.image.config.v1+json","digest":"sha256:cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc","size":2},"layers":[]})";
  Manifest guessed = parse_manifest(image, "", "img");
  EXPECT_EQ(guessed.kind, Manifest::Kind::Image);
  EXPECT_EQ(guessed.media_type, media_type::kOciManifest);
  EXPECT_EQ(guessed.config.digest, "sha256:" + std::string(64, 'c'));
  Manifest typed = parse_manifest(
      image, "application/vnd.docker.distribution.manifest.v2+json; charset=utf-8", "img");
  EXPECT_EQ(typed.media_type, media_type::kDockerManifest);
  Manifest index = parse_manifest(R"({"schemaVersion":2,"manifests":[]})", "", "img");
  EXPECT_EQ(index.kind, Manifest::Kind::Index);
}

TEST(Manifest, Schema1IsRecognized) {
  Manifest m = parse_manifest(R"({"schemaVersion":1,"name":"x","tag":"1","fsLayers":[]})",
                              "application/vnd.docker.distribution.manifest.v1+prettyjws", "img");
  EXPECT_EQ(m.kind, Manifest::Kind::Schema1);
}

TEST(Manifest, InvalidDocumentsSayWhat) {
  try {
    parse_manifest("{\"schemaVersion\": 2,", "", "docker.io/library/x:1");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Resolution);
    EXPECT_NE(
        std::string(e.what()).find("docker.io/library/x:1: the registry sent an invalid manifest"),
        std::string::npos)
        << e.what();
  }
  EXPECT_THROW(parse_manifest("[]", "", "x"), Error);
  EXPECT_THROW(parse_manifest(R"({"mediaType":"text/plain"})", "", "x"), Error);
}

TEST(Manifest, ConfigPlatform) {
  EXPECT_EQ(parse_config_platform(R"({"os":"linux","architecture":"aarch64"})", "x").str(),
            "linux/arm64");
  EXPECT_EQ(
      parse_config_platform(R"({"os":"linux","architecture":"arm","variant":"v6"})", "x").str(),
      "linux/arm/v6");
  EXPECT_THROW(parse_config_platform(R"({"architecture":"amd64"})", "x"), Error);
  EXPECT_THROW(parse_config_platform("not json", "x"), Error);
}

TEST(Manifest, AcceptListsIndexesFirst) {
  std::string accept(manifest_accept());
  EXPECT_EQ(accept.find(media_type::kOciIndex), 0u);
  EXPECT_NE(accept.find(media_type::kDockerList), std::string::npos);
  EXPECT_NE(accept.find(media_type::kDockerManifest), std::string::npos);
}

TEST(Digest, Sha256AndVerification) {
  EXPECT_EQ(sha256_digest(""),
            "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_TRUE(digest_matches(sha256_digest("abc"), "abc"));
  EXPECT_FALSE(digest_matches(sha256_digest("abc"), "abd"));
  EXPECT_TRUE(
      digest_matches("sha512:"
                     "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc"
                     "1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
                     "abc"));
  EXPECT_THROW(digest_matches("md5:00", "abc"), Error);
}

}  // namespace
}  // namespace archfit::registry
