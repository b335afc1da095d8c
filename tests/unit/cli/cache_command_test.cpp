// `archfit cache` as a user runs it: which directory it picks, what list,
// prune and clear print, and usage errors.
#include <chrono>
#include <cstdio>

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <archfit/base/file.hpp>
#include <archfit/cache/store.hpp>
#include <archfit/image/reference.hpp>

#include "support/process.hpp"

namespace archfit::testing {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

const std::string kDigestA = "sha256:" + std::string(64, 'a');
const std::string kDigestB = "sha256:" + std::string(64, 'b');

// A clean environment: only what the test gives decides the directory, and
// the run starts in `cwd`, away from any .archfit.yaml.
ProcessOptions isolated(const TempDir& cwd, std::vector<std::string> env = {}) {
  ProcessOptions o;
  o.cwd = cwd.path();
  o.env = {"ARCHFIT_CACHE_DIR=", "XDG_CACHE_HOME=", "ARCHFIT_CONFIG=",
           "HOME=" + (cwd / "home").string()};
  o.env.insert(o.env.end(), env.begin(), env.end());
  return o;
}

// A store whose entries are `age` old.
cache::Store store_aged(const fs::path& root, std::chrono::seconds age) {
  return cache::Store(root, [age] { return std::chrono::system_clock::now() - age; });
}

cache::DigestEntry digest_entry(const std::string& digest, const char* platforms) {
  cache::DigestEntry e;
  e.digest = digest;
  e.platforms = image::PlatformSet::parse(platforms);
  return e;
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (std::size_t nl; (nl = text.find('\n', start)) != std::string::npos; start = nl + 1)
    out.push_back(text.substr(start, nl - start));
  return out;
}

TEST(CacheCommand, PathFollowsFlagThenVariablesThenHome) {
  TempDir dir;
  const std::string flag = (dir / "from-flag").string();
  const std::string env = (dir / "from-env").string();
  const std::string xdg = (dir / "xdg").string();

  ProcessResult r = run_archfit({"cache", "path", "--cache-dir", flag}, isolated(dir));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, flag + "\n");

  r = run_archfit({"cache", "path"}, isolated(dir, {"ARCHFIT_CACHE_DIR=" + env}));
  EXPECT_EQ(r.out, env + "\n") << r.err;
  r = run_archfit({"cache", "path", "--cache-dir", flag},
                  isolated(dir, {"ARCHFIT_CACHE_DIR=" + env}));
  EXPECT_EQ(r.out, flag + "\n") << "the flag wins";
  r = run_archfit({"cache", "--cache-dir", flag, "path"}, isolated(dir));
  EXPECT_EQ(r.out, flag + "\n") << "before the subcommand too";

  r = run_archfit({"cache", "path"}, isolated(dir, {"XDG_CACHE_HOME=" + xdg}));
  EXPECT_EQ(r.out, xdg + "/archfit\n") << r.err;
  r = run_archfit({"cache", "path"}, isolated(dir));
  EXPECT_EQ(r.out, (dir / "home/.cache/archfit").string() + "\n") << r.err;

  // A relative directory is printed absolute, from the working directory.
  r = run_archfit({"cache", "path", "--cache-dir", "rel/cache"}, isolated(dir));
  EXPECT_EQ(r.out, (dir / "rel/cache").string() + "\n") << r.err;
  EXPECT_FALSE(fs::exists(dir / "rel")) << "path creates nothing";
}

TEST(CacheCommand, NoDirectoryWithoutHomeIsExitTwo) {
  TempDir dir;
  ProcessResult r = run_archfit({"cache", "list"}, isolated(dir, {"HOME="}));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(contains(r.err, "no cache directory: HOME is not set")) << r.err;
  EXPECT_TRUE(contains(r.err, "--cache-dir DIR")) << r.err;
}

TEST(CacheCommand, ConfigurationIsLoadedLikeOtherCommands) {
  TempDir dir;
  ProcessResult r =
      run_archfit({"cache", "path", "--config", (dir / "missing.yaml").string()}, isolated(dir));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "missing.yaml")) << r.err;
  dir.write(".archfit.yaml", "clusterPlatforms: [linux/amd64]\n");
  r = run_archfit({"cache", "path", "--cache-dir", "c"}, isolated(dir));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  dir.write(".archfit.yaml", "clusterPlatform: [linux/amd64]\n");
  r = run_archfit({"cache", "path", "--cache-dir", "c"}, isolated(dir));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, ".archfit.yaml:1:1")) << r.err;
}

TEST(CacheCommand, ListPrintsOneSortedLinePerFileAndASummary) {
  TempDir dir;
  fs::path root = dir / "cache";
  cache::Store store = store_aged(root, 3 * 24h + 5min);
  ASSERT_TRUE(store.try_put_digest(digest_entry(kDigestB, "linux/arm64,linux/amd64")));
  ASSERT_TRUE(store.try_put_tag(image::Reference::parse("nginx:1.25"), kDigestB));
  ASSERT_TRUE(store_aged(root, 2h).try_put_digest(digest_entry(kDigestA, "linux/amd64")));
  dir.write("cache/v1/tags/.tmp-1-00000000000000a2", "{");

  ProcessResult r = run_archfit({"cache", "list", "--cache-dir", root.string()}, isolated(dir));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> out = lines(r.out);
  ASSERT_EQ(out.size(), 5u) << r.out;
  // kind  key  detail  age  size, columns aligned.
  auto words = [](const std::string& line) {
    std::vector<std::string> w;
    std::size_t at = 0;
    while ((at = line.find_first_not_of(' ', at)) != std::string::npos) {
      std::size_t end = line.find(' ', at);
      w.push_back(line.substr(at, end - at));
      at = end;
    }
    return w;
  };
  std::string size_a = std::to_string(fs::file_size(store.digest_path(kDigestA)));
  std::string size_b = std::to_string(fs::file_size(store.digest_path(kDigestB)));
  EXPECT_EQ(words(out[0]),
            (std::vector<std::string>{"digest", kDigestA, "linux/amd64", "2h", size_a, "B"}));
  EXPECT_EQ(words(out[1]), (std::vector<std::string>{"digest", kDigestB, "linux/amd64,linux/arm64",
                                                     "3d", size_b, "B"}));
  EXPECT_EQ(words(out[2]).at(0), "tag");
  EXPECT_EQ(words(out[2]).at(1), "docker.io/library/nginx:1.25");
  EXPECT_EQ(words(out[2]).at(2), kDigestB);
  EXPECT_EQ(words(out[2]).at(3), "3d");
  EXPECT_EQ(words(out[3]).at(0), "invalid");
  EXPECT_EQ(words(out[3]).at(1), "v1/tags/.tmp-1-00000000000000a2");
  EXPECT_EQ(out[0].find(kDigestA), out[2].find("docker.io")) << "keys line up";
  EXPECT_TRUE(contains(out[4], "4 files (2 digests, 1 tag, 1 invalid), ")) << out[4];
  EXPECT_TRUE(contains(out[4], " in " + root.string())) << out[4];

  ProcessResult empty =
      run_archfit({"cache", "list", "--cache-dir", (dir / "none").string()}, isolated(dir));
  EXPECT_EQ(empty.exit_code, 0);
  EXPECT_EQ(empty.out, "no entries in " + (dir / "none").string() + "\n");
}

TEST(CacheCommand, ListAsJson) {
  TempDir dir;
  fs::path root = dir / "cache";
  cache::Store store(root);
  ASSERT_TRUE(store.try_put_digest(digest_entry(kDigestA, "linux/amd64,linux/s390x")));
  ASSERT_TRUE(store.try_put_tag(image::Reference::parse("ghcr.io/org/app:v1"), kDigestA));
  ProcessResult r = run_archfit({"cache", "list", "--cache-dir", root.string(), "--format", "json"},
                                isolated(dir));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  rapidjson::Document doc;
  doc.Parse(r.out.c_str());
  ASSERT_FALSE(doc.HasParseError()) << r.out;
  EXPECT_EQ(std::string(doc["directory"].GetString()), root.string());
  const auto& entries = doc["entries"];
  ASSERT_EQ(entries.Size(), 2u);
  EXPECT_EQ(std::string(entries[0]["kind"].GetString()), "digest");
  EXPECT_EQ(std::string(entries[0]["key"].GetString()), kDigestA);
  ASSERT_EQ(entries[0]["platforms"].Size(), 2u);
  EXPECT_EQ(std::string(entries[0]["platforms"][1].GetString()), "linux/s390x");
  EXPECT_EQ(std::string(entries[1]["kind"].GetString()), "tag");
  EXPECT_EQ(std::string(entries[1]["key"].GetString()), "ghcr.io/org/app:v1");
  EXPECT_EQ(std::string(entries[1]["digest"].GetString()), kDigestA);
  EXPECT_EQ(entries[1]["bytes"].GetUint64(),
            fs::file_size(store.tag_path(image::Reference::parse("ghcr.io/org/app:v1"))));
  auto now = std::chrono::system_clock::now().time_since_epoch();
  EXPECT_NEAR(static_cast<double>(entries[1]["time"].GetInt64()),
              static_cast<double>(std::chrono::duration_cast<std::chrono::seconds>(now).count()),
              60);

  ProcessResult bad = run_archfit(
      {"cache", "list", "--cache-dir", root.string(), "--format", "yaml"}, isolated(dir));
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_TRUE(contains(bad.err, "--format: \"yaml\" is not a format")) << bad.err;
}

TEST(CacheCommand, PruneRemovesWhatIsOlderThanAsked) {
  TempDir dir;
  fs::path root = dir / "cache";
  const auto nginx = image::Reference::parse("nginx:1.25");
  const auto redis = image::Reference::parse("redis:7");
  ASSERT_TRUE(store_aged(root, 10 * 24h).try_put_tag(nginx, kDigestA));
  ASSERT_TRUE(store_aged(root, 40 * 24h).try_put_digest(digest_entry(kDigestA, "linux/amd64")));
  ASSERT_TRUE(store_aged(root, 1h).try_put_tag(redis, kDigestB));
  cache::Store store(root);

  // The default, 30d: only the 40-day-old digest goes.
  ProcessResult r = run_archfit({"cache", "prune", "--cache-dir", root.string()}, isolated(dir));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(lines(r.out).at(0), "removed digest " + kDigestA + " (40d old)");
  EXPECT_TRUE(contains(r.out, "removed 1 file (")) << r.out;
  EXPECT_TRUE(contains(r.out, "older than 30d, kept 2")) << r.out;
  EXPECT_FALSE(store.get_digest(kDigestA));
  EXPECT_TRUE(store.get_tag(nginx));

  r = run_archfit({"cache", "prune", "--older-than", "1w", "--cache-dir", root.string()},
                  isolated(dir));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(lines(r.out).at(0), "removed tag docker.io/library/nginx:1.25 (10d old)");
  EXPECT_TRUE(contains(r.out, "removed 1 file (")) << r.out;
  EXPECT_FALSE(store.get_tag(nginx));
  EXPECT_TRUE(store.get_tag(redis));
}

TEST(CacheCommand, InvalidOlderThanIsExitTwoNamingTheValue) {
  TempDir dir;
  fs::path root = dir / "cache";
  ASSERT_TRUE(store_aged(root, 400 * 24h).try_put_tag(image::Reference::parse("a:1"), kDigestA));
  for (const char* value : {"3x", "1.5h", "-1d", ""}) {
    ProcessResult r = run_archfit(
        {"cache", "prune", "--older-than", value, "--cache-dir", root.string()}, isolated(dir));
    EXPECT_EQ(r.exit_code, 2) << value;
    EXPECT_TRUE(contains(r.err, "--older-than: invalid duration \"" + std::string(value) + "\""))
        << r.err;
    EXPECT_EQ(r.out, "");
  }
  EXPECT_TRUE(cache::Store(root).get_tag(image::Reference::parse("a:1"))) << "nothing removed";
}

TEST(CacheCommand, ClearRemovesArchfitsFilesOnly) {
  TempDir dir;
  fs::path root = dir / "cache";
  cache::Store store(root);
  ASSERT_TRUE(store.try_put_digest(digest_entry(kDigestA, "linux/amd64")));
  ASSERT_TRUE(store.try_put_tag(image::Reference::parse("nginx"), kDigestA));
  dir.write("cache/notes.txt", "mine");
  ProcessResult r = run_archfit({"cache", "clear", "--cache-dir", root.string()}, isolated(dir));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.out.rfind("removed 2 files (", 0) == 0) << r.out;
  EXPECT_TRUE(contains(r.out, ") from " + (root / "v1").string() + "\n")) << r.out;
  EXPECT_FALSE(fs::exists(root / "v1"));
  EXPECT_EQ(read_file(root / "notes.txt"), "mine");
}

// The reproducers: a repository's own v1/ folder given as --cache-dir, and a
// cache whose v1 links to another directory.
TEST(CacheCommand, PruneAndClearNeverRemoveFilesArchfitDidNotWrite) {
  TempDir dir;
  fs::path repo = dir / "repo";
  dir.write("repo/v1/api/users.go", "package v1\n");
  dir.write("repo/v1/tags/" + std::string(64, 'a') + ".json", "{}");
  for (const char* command : {"prune", "clear"}) {
    std::vector<std::string> args{"cache", command, "--cache-dir", repo.string()};
    if (std::string(command) == "prune") args.insert(args.end(), {"--older-than", "0"});
    ProcessResult r = run_archfit(args, isolated(dir));
    EXPECT_EQ(r.exit_code, 2) << command << r.out;
    EXPECT_TRUE(contains(r.err, repo.string() + " does not look like an archfit cache")) << r.err;
    EXPECT_EQ(r.out, "");
  }
  EXPECT_EQ(read_file(repo / "v1/api/users.go"), "package v1\n");
  EXPECT_TRUE(fs::exists(repo / "v1/tags" / (std::string(64, 'a') + ".json")));

  fs::path root = dir / "cache";
  cache::Store store(root);
  ASSERT_TRUE(store.try_put_tag(image::Reference::parse("nginx"), kDigestA));
  fs::remove_all(root / "v1");
  fs::create_symlink(repo / "v1", root / "v1");
  for (const char* command : {"prune", "clear"}) {
    std::vector<std::string> args{"cache", command, "--cache-dir", root.string()};
    if (std::string(command) == "prune") args.insert(args.end(), {"--older-than", "0"});
    ProcessResult r = run_archfit(args, isolated(dir));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(r.out.find("removed 0 files") != std::string::npos) << r.out;
  }
  EXPECT_EQ(read_file(repo / "v1/api/users.go"), "package v1\n");
  EXPECT_TRUE(fs::exists(repo / "v1/tags" / (std::string(64, 'a') + ".json")));
}

TEST(CacheCommand, UsageAndHelp) {
  TempDir dir;
  ProcessResult r = run_archfit({"cache"}, isolated(dir));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "subcommand")) << r.err;
  r = run_archfit({"cache", "shrink"}, isolated(dir));
  EXPECT_EQ(r.exit_code, 2);

  r = run_archfit({"cache", "--help"}, isolated(dir));
  EXPECT_EQ(r.exit_code, 0);
  for (const char* word : {"path", "list", "prune", "clear", "--cache-dir"})
    EXPECT_TRUE(contains(r.out, word)) << word << " in " << r.out;
  r = run_archfit({"cache", "prune", "--help"}, isolated(dir));
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_TRUE(contains(r.out, "--older-than DUR=30d")) << r.out;
}

}  // namespace
}  // namespace archfit::testing
