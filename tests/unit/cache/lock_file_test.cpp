// archfit.lock: reading hand-written files with located errors, lookups by
// canonical reference, and deterministic writing.
#include <memory>
#include <optional>

#include <gtest/gtest.h>

#include <archfit/base/error.hpp>
#include <archfit/cache/lock_file.hpp>
#include <archfit/image/reference.hpp>

#include "support/process.hpp"

namespace archfit::cache {
namespace {

const std::string kDigestA = "sha256:" + std::string(64, 'a');
const std::string kDigestB = "sha256:" + std::string(64, 'b');

image::Reference ref(const char* text) {
  return image::Reference::parse(text);
}

LockEntry entry(std::string digest, const char* platforms) {
  return LockEntry{std::move(digest), image::PlatformSet::parse(platforms)};
}

TEST(LockFile, ParsesAndFindsByCanonicalReference) {
  LockFile lock = LockFile::parse(R"({"version": 1,
 "images": {
  "docker.io/library/nginx:1.25": {"digest": ")" +
                                      kDigestA + R"(", "platforms": ["linux/arm64", "linux/amd64"]},
  "docker.io/library/redis:latest": {"platforms": ["linux/aarch64"]},
  "ghcr.io/org/app@)" + kDigestB + R"(": {"platforms": ["linux/arm/v7"]}
 }})",
                                  "archfit.lock");
  ASSERT_EQ(lock.size(), 3u);
  std::optional<LockEntry> nginx = lock.find(ref("nginx:1.25"));
  ASSERT_TRUE(nginx);
  EXPECT_EQ(nginx->digest, kDigestA);
  EXPECT_EQ(nginx->platforms.str(), "linux/amd64,linux/arm64");
  ASSERT_TRUE(lock.find(ref("redis")));
  EXPECT_EQ(lock.find(ref("redis"))->platforms.str(), "linux/arm64");
  EXPECT_TRUE(lock.find(ref("docker.io/library/redis:latest")));
  EXPECT_TRUE(lock.find(ref("index.docker.io/library/redis")));
  EXPECT_FALSE(lock.find(ref("nginx")));
  EXPECT_FALSE(lock.find(ref("nginx:1.26")));
  EXPECT_TRUE(lock.find(ref(("ghcr.io/org/app@" + kDigestB).c_str())));
}

TEST(LockFile, TagAndDigestReferences) {
  LockFile lock;
  lock.set(ref("nginx:1.25"), entry(kDigestA, "linux/amd64"));
  lock.set(ref(("ghcr.io/org/app@" + kDigestB).c_str()), entry("", "linux/arm64"));
  lock.set(ref(("quay.io/x/y:2@" + kDigestA).c_str()), entry(kDigestA, "linux/s390x"));
  // Exact keys.
  EXPECT_TRUE(lock.find(ref(("quay.io/x/y:2@" + kDigestA).c_str())));
  // The digest names the image: a tag next to it does not matter...
  std::optional<LockEntry> app = lock.find(ref(("ghcr.io/org/app:v1@" + kDigestB).c_str()));
  ASSERT_TRUE(app);
  EXPECT_EQ(app->platforms.str(), "linux/arm64");
  // ...and a tag entry that recorded the same digest is that image.
  EXPECT_TRUE(lock.find(ref(("nginx:1.25@" + kDigestA).c_str())));
  EXPECT_FALSE(lock.find(ref(("nginx:1.25@" + kDigestB).c_str())));
  // A tag alone does not find an entry keyed by tag and digest.
  EXPECT_FALSE(lock.find(ref("quay.io/x/y:2")));
}

TEST(LockFile, SerializesDeterministically) {
  LockFile lock;
  lock.set(ref("redis"), entry("", "linux/arm64,linux/amd64"));
  lock.set(ref("nginx:1.25"), entry(kDigestA, "linux/arm/v7,linux/amd64"));
  const std::string expected = R"({
  "images": {
    "docker.io/library/nginx:1.25": {
      "digest": ")" + kDigestA +
                               R"(",
      "platforms": [
        "linux/amd64",
        "linux/arm/v7"
      ]
    },
    "docker.io/library/redis:latest": {
      "platforms": [
        "linux/amd64",
        "linux/arm64"
      ]
    }
  },
  "version": 1
}
)";
  EXPECT_EQ(lock.serialize(), expected);
  LockFile again = LockFile::parse(lock.serialize(), "archfit.lock");
  EXPECT_EQ(again.size(), lock.size());
  EXPECT_EQ(again.find(ref("redis")), lock.find(ref("redis")));
  EXPECT_EQ(again.find(ref("nginx:1.25")), lock.find(ref("nginx:1.25")));
  EXPECT_EQ(again.serialize(), expected);

  LockFile other;  // the same entries set in another order
  other.set(ref("nginx:1.25"), entry(kDigestA, "linux/amd64,linux/arm/v7"));
  other.set(ref("docker.io/library/redis"), entry("", "linux/amd64,linux/arm64"));
  EXPECT_EQ(other.serialize(), expected);
}

TEST(LockFile, EmptyLockRoundTrips) {
  LockFile lock;
  EXPECT_EQ(lock.serialize(), "{\n  \"images\": {},\n  \"version\": 1\n}\n");
  EXPECT_EQ(LockFile::parse(lock.serialize(), "x").size(), 0u);
  EXPECT_EQ(LockFile::parse(R"({"version": 1})", "x").size(), 0u);
}

TEST(LockFile, SetReplacesAndRejectsEmptyPlatforms) {
  LockFile lock;
  lock.set(ref("nginx"), entry("", "linux/amd64"));
  lock.set(ref("docker.io/library/nginx:latest"), entry("", "linux/arm64"));
  EXPECT_EQ(lock.size(), 1u);
  EXPECT_EQ(lock.find(ref("nginx"))->platforms.str(), "linux/arm64");
  EXPECT_THROW(lock.set(ref("nginx"), LockEntry{}), Error);
}

TEST(LockFile, LoadNamesTheFile) {
  testing::TempDir dir;
  auto path = dir.write("archfit.lock", "{\"version\": 1,\n \"images\": []}\n");
  try {
    LockFile::load(path);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.what(), path.string() +
                            ":2:12: \"images\": expected an object of canonical image "
                            "reference -> {\"digest\", \"platforms\"}, got an array");
  }
}

// Under AddressSanitizer, reading one byte past the text fails this test:
// the text lives in a heap block of exactly its size, with no terminator.
TEST(LockFile, TextEndingInsideAUtf8SequenceIsNotReadPast) {
  for (std::string text :
       {"{\"version\": 1, \"images\": {\"a\xf4", "{\"version\": 1, \"images\": {\"\xe2\x82",
        "{\"version\": 1, \"images\": {\"\xf0"}) {
    auto block = std::make_unique<char[]>(text.size());
    std::copy(text.begin(), text.end(), block.get());
    try {
      LockFile::parse(std::string_view(block.get(), text.size()), "archfit.lock");
      FAIL() << "accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Config);
      EXPECT_NE(std::string(e.what()).find("archfit.lock:1:"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("cannot parse JSON: "), std::string::npos) << e.what();
    }
  }
}

struct Bad {
  const char* name;
  std::string text;
  std::string message;  // with line:col
};

class LockFileBad : public ::testing::TestWithParam<Bad> {};

TEST_P(LockFileBad, LocatesTheErrorAndSaysWhatToDo) {
  try {
    LockFile::parse(GetParam().text, "archfit.lock");
    FAIL() << "accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Config);
    EXPECT_EQ(e.what(), "archfit.lock:" + GetParam().message);
  }
}

const std::string kNginx = R"("docker.io/library/nginx:1.25")";

INSTANTIATE_TEST_SUITE_P(
    Table, LockFileBad,
    ::testing::Values(
        Bad{"Syntax", "{\"version\": 1,\n \"images\": {,}}",
            "2:13: cannot parse JSON: missing a name for object member"},
        Bad{"Trailing", "{\"version\": 1} x",
            "1:16: cannot parse JSON: the document root must not "
            "be followed by other values"},
        Bad{"Empty", "", "1:1: cannot parse JSON: the document is empty"},
        Bad{"NotObject", "[]",
            "1:1: expected a JSON object {\"version\": 1, \"images\": {...}}, got an array"},
        Bad{"NoVersion", "{\"images\": {}}",
            "1:1: missing \"version\"; a lock file starts {\"version\": 1, ...}"},
        Bad{"VersionTwo", "{\n  \"version\": 2,\n  \"images\": {}\n}",
            "2:14: unsupported lock file version 2; this archfit reads version 1 (upgrade archfit, "
            "or write the file again with `archfit lock`, or without a registry `archfit lock "
            "--set "
            "IMAGE=PLATFORMS`)"},
        Bad{"VersionString", "{\"version\": \"1\"}",
            "1:13: \"version\": expected the number 1, got a string"},
        Bad{"VersionTwice", "{\"version\": 1, \"version\": 1}",
            "1:16: \"version\" is given twice; keep one"},
        Bad{"UnknownTop", "{\"version\": 1, \"image\": {}}",
            "1:16: unknown key \"image\"; a lock file has \"version\" and \"images\""},
        Bad{"NotCanonical",
            "{\"version\": 1, \"images\": {\n  \"nginx:1.25\": {\"platforms\": "
            "[\"linux/amd64\"]}}}",
            "2:3: \"nginx:1.25\" is not a canonical image reference; write "
            "\"docker.io/library/nginx:1.25\""},
        Bad{"NoTag",
            "{\"version\": 1, \"images\": {\n  \"docker.io/library/nginx\": {\"platforms\": "
            "[\"linux/amd64\"]}}}",
            "2:3: \"docker.io/library/nginx\" is not a canonical image reference; write "
            "\"docker.io/library/nginx:latest\""},
        Bad{"InvalidReference",
            "{\"version\": 1, \"images\": {\n  \"Nginx:1.25\": {\"platforms\": "
            "[\"linux/amd64\"]}}}",
            "2:3: invalid image reference \"Nginx:1.25\": repository name must be lowercase"},
        Bad{"Duplicate",
            "{\"version\": 1, \"images\": {\n  " + kNginx +
                ": {\"platforms\": [\"linux/amd64\"]},\n  " + kNginx +
                ": {\"platforms\": [\"linux/amd64\"]}}}",
            "3:3: \"docker.io/library/nginx:1.25\" is listed twice; keep one entry"},
        Bad{"EntryNotObject", "{\"version\": 1, \"images\": {" + kNginx + ": [\"linux/amd64\"]}}",
            "1:59: \"docker.io/library/nginx:1.25\": expected an object {\"digest\", "
            "\"platforms\"}, got an array"},
        Bad{"MissingPlatforms",
            "{\"version\": 1, \"images\": {\n  " + kNginx + ": {\"digest\": \"" + kDigestA +
                "\"}}}",
            "2:35: \"docker.io/library/nginx:1.25\": missing \"platforms\"; list the platforms the "
            "image is built for, e.g. \"platforms\": [\"linux/amd64\"]"},
        Bad{"EmptyPlatforms", "{\"version\": 1, \"images\": {" + kNginx + ": {\"platforms\": []}}}",
            "1:73: \"docker.io/library/nginx:1.25\": \"platforms\" is empty; list at least one "
            "platform, e.g. [\"linux/amd64\"]"},
        Bad{"PlatformsString",
            "{\"version\": 1, \"images\": {" + kNginx + ": {\"platforms\": \"linux/amd64\"}}}",
            "1:73: \"docker.io/library/nginx:1.25\": \"platforms\": expected an array of "
            "\"os/arch[/variant]\" strings, got a string"},
        Bad{"PlatformNumber",
            "{\"version\": 1, \"images\": {" + kNginx + ": {\"platforms\": [1]}}}",
            "1:74: \"docker.io/library/nginx:1.25\": \"platforms\": expected \"os/arch[/variant]\" "
            "strings, got a number"},
        Bad{"InvalidPlatform",
            "{\"version\": 1, \"images\": {\n  " + kNginx +
                ": {\n    \"platforms\": [\"linux/amd64\", \"linux\"]}}}",
            "3:34: \"docker.io/library/nginx:1.25\": invalid platform \"linux\": an os alone "
            "does not say which architecture; write os/arch, e.g. linux/amd64"},
        Bad{"InvalidDigest",
            "{\"version\": 1, \"images\": {\n  " + kNginx +
                ": {\n    \"digest\": \"sha256:abc\", \"platforms\": [\"linux/amd64\"]}}}",
            "3:15: \"docker.io/library/nginx:1.25\": invalid digest \"sha256:abc\"; write "
            "<algorithm>:<hex>, e.g. sha256: and 64 lowercase hex digits"},
        Bad{"DigestMismatch",
            "{\"version\": 1, \"images\": {\n  \"docker.io/library/nginx@" + kDigestA +
                "\": {\"digest\": \"" + kDigestB + "\", \"platforms\": [\"linux/amd64\"]}}}",
            "2:113: \"docker.io/library/nginx@" + kDigestA + "\": digest \"" + kDigestB +
                "\" differs from the digest in the key; remove it or make them agree"},
        Bad{"UnknownEntryKey",
            "{\"version\": 1, \"images\": {" + kNginx + ": {\"platform\": [\"linux/amd64\"]}}}",
            "1:60: \"docker.io/library/nginx:1.25\": unknown key \"platform\"; an entry has "
            "\"digest\" (optional) and \"platforms\""},
        Bad{"NonAsciiColumn", "{\"version\": 1, \"images\": {\"\xc3\xa9\": 1, \"nginx\": 1}}",
            "1:27: invalid image reference \"\xc3\xa9\": path component \"\xc3\xa9\" must be "
            "lowercase letters and digits joined by '.', '_', '__' or dashes"},
        Bad{"AfterNonAscii",
            "{\"version\": 1, \"images\": {\"docker.io/library/\xc3\xa9:1\": 1}, \"x\xc3\xa9\": 1}",
            // Columns count characters: byte 57, character 56.
            "1:56: unknown key \"x\xc3\xa9\"; a lock file has \"version\" and \"images\""},
        // Entries are checked as they are read, but the file's own keys are
        // reported first, and then the first entry that is wrong.
        Bad{"BadEntryThenVersionTwo",
            "{\"images\": {\"nginx:1.25\": {\"platforms\": [\"linux/amd64\"]}},\n\"version\": 2}",
            "2:12: unsupported lock file version 2; this archfit reads version 1 (upgrade archfit, "
            "or write the file again with `archfit lock`, or without a registry `archfit lock "
            "--set "
            "IMAGE=PLATFORMS`)"},
        Bad{"TwoBadEntries",
            "{\"version\": 1, \"images\": {\n  \"nginx:1\": 1,\n  \"redis:7\": 2}}",
            "2:3: \"nginx:1\" is not a canonical image reference; write "
            "\"docker.io/library/nginx:1\""},
        Bad{"Deep", std::string(100, '[') + std::string(100, ']'),
            "1:65: cannot parse JSON: nested more than 64 levels deep"}),
    [](const ::testing::TestParamInfo<Bad>& test) { return std::string(test.param.name); });

}  // namespace
}  // namespace archfit::cache
