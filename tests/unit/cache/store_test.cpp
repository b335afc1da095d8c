// The on-disk cache: entries round trip, TTLs follow an injected clock, every
// damaged or foreign file is a miss that the next put repairs, failed writes
// leave nothing behind, and eight processes can share one directory.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fcntl.h>
#include <memory>
#include <set>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <archfit/base/duration.hpp>
#include <archfit/base/error.hpp>
#include <archfit/base/file.hpp>
#include <archfit/cache/store.hpp>
#include <archfit/image/reference.hpp>

#include "support/process.hpp"

namespace archfit::cache {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using testing::TempDir;

std::string digest_of(unsigned n) {
  char buf[80];
  std::snprintf(buf, sizeof buf, "sha256:%064x", n);
  return buf;
}

image::Reference image_ref(const std::string& text) {
  return image::Reference::parse(text);
}

// 2024-06-10T06:13:20Z, a whole second.
const TimePoint kT0{std::chrono::seconds(1718000000)};

// A clock tests move by hand.
struct FakeClock {
  std::shared_ptr<TimePoint> now = std::make_shared<TimePoint>(kT0);
  Clock clock() const {
    return [now = now] { return *now; };
  }
  void set(TimePoint t) const { *now = t; }
};

DigestEntry digest_entry(const std::string& digest, const char* platforms,
                         std::string media_type = "application/vnd.oci.image.index.v1+json") {
  DigestEntry e;
  e.digest = digest;
  e.media_type = std::move(media_type);
  e.platforms = image::PlatformSet::parse(platforms);
  return e;
}

// Every file under dir whose name starts with ".tmp-".
std::vector<fs::path> temp_files(const fs::path& dir) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().filename().string().rfind(".tmp-", 0) == 0) out.push_back(it->path());
  }
  return out;
}

void write_raw(const fs::path& path, const std::string& content) {
  fs::create_directories(path.parent_path());
  FILE* f = std::fopen(path.c_str(), "wb");
  ASSERT_NE(f, nullptr) << path;
  std::fwrite(content.data(), 1, content.size(), f);
  std::fclose(f);
}

void set_mtime(const fs::path& path, TimePoint t) {
  auto s = std::chrono::floor<std::chrono::seconds>(t.time_since_epoch()).count();
  struct timespec times[2] = {{s, 0}, {s, 0}};
  ASSERT_EQ(::utimensat(AT_FDCWD, path.c_str(), times, 0), 0) << path;
}

TEST(Store, DigestEntryRoundTripsAndIsWrittenDeterministically) {
  TempDir dir;
  FakeClock clock;
  clock.set(kT0 + 250ms);  // stored in whole seconds
  Store store(dir.path(), clock.clock());
  const std::string d = digest_of(0xab12);
  EXPECT_FALSE(store.get_digest(d));
  EXPECT_FALSE(fs::exists(dir / "v1")) << "a get creates nothing";

  std::string why;
  ASSERT_TRUE(store.try_put_digest(digest_entry(d, "linux/arm64,linux/amd64,linux/arm/v7"), &why))
      << why;
  std::optional<DigestEntry> got = store.get_digest(d);
  ASSERT_TRUE(got);
  EXPECT_EQ(got->digest, d);
  EXPECT_EQ(got->media_type, "application/vnd.oci.image.index.v1+json");
  EXPECT_EQ(got->platforms.str(), "linux/amd64,linux/arm/v7,linux/arm64");
  EXPECT_EQ(got->written, kT0);

  fs::path file = dir / "v1/digests/sha256/00" / (d.substr(7) + ".json");
  EXPECT_EQ(store.digest_path(d), file);
  EXPECT_EQ(read_file(file),
            "{\"version\":1,\"kind\":\"digest\",\"digest\":\"" + d +
                "\",\"mediaType\":\"application/vnd.oci.image.index.v1+json\",\"platforms\":["
                "\"linux/amd64\",\"linux/arm/v7\",\"linux/arm64\"],\"written\":1718000000}\n");
  EXPECT_TRUE(temp_files(dir.path()).empty());
}

TEST(Store, HasDigestsOnceOneIsWritten) {
  TempDir dir;
  Store store(dir.path());
  EXPECT_FALSE(store.has_digests()) << "no directory yet";
  fs::create_directories(dir / "v1/digests/sha256/ab");
  EXPECT_FALSE(store.has_digests()) << "an empty shard";
  ASSERT_TRUE(store.try_put_digest(digest_entry(digest_of(0x1234), "linux/amd64")));
  EXPECT_TRUE(store.has_digests());
}

TEST(Store, TagEntryRoundTripsUnderTheHashOfTheCanonicalReference) {
  TempDir dir;
  FakeClock clock;
  Store store(dir.path(), clock.clock());
  const std::string d = digest_of(7);
  std::string why;
  ASSERT_TRUE(store.try_put_tag(image_ref("nginx:1.25"), d, &why)) << why;

  // Every spelling of the reference finds it; another tag does not.
  for (const char* spelling :
       {"nginx:1.25", "docker.io/library/nginx:1.25", "index.docker.io/library/nginx:1.25"}) {
    std::optional<TagEntry> got = store.get_tag(image_ref(spelling));
    ASSERT_TRUE(got) << spelling;
    EXPECT_EQ(got->reference, "docker.io/library/nginx:1.25");
    EXPECT_EQ(got->digest, d);
    EXPECT_EQ(got->fetched, kT0);
  }
  EXPECT_FALSE(store.get_tag(image_ref("nginx:1.26")));
  EXPECT_FALSE(store.get_tag(image_ref("nginx")));

  fs::path file =
      dir / "v1/tags/b07c1fa29c8dc936d6db6891b04d7647d88ecb270969a682be1b6e033134f8b3.json";
  EXPECT_EQ(store.tag_path(image_ref("nginx:1.25")), file);
  EXPECT_EQ(read_file(file),
            "{\"version\":1,\"kind\":\"tag\",\"reference\":\"docker.io/library/nginx:1.25\","
            "\"digest\":\"" +
                d + "\",\"fetched\":1718000000}\n");

  // A tag that moved: the next put replaces the entry.
  clock.set(kT0 + 1h);
  ASSERT_TRUE(store.try_put_tag(image_ref("nginx:1.25"), digest_of(8), &why)) << why;
  EXPECT_EQ(store.get_tag(image_ref("nginx:1.25"))->digest, digest_of(8));
  EXPECT_EQ(store.get_tag(image_ref("nginx:1.25"))->fetched, kT0 + 1h);
  EXPECT_TRUE(temp_files(dir.path()).empty());
}

TEST(Store, ReferencesWithADigestGetNoTagEntry) {
  TempDir dir;
  Store store(dir.path());
  const std::string d = digest_of(1);
  std::string why;
  EXPECT_FALSE(store.try_put_tag(image_ref("ghcr.io/org/app:v1@" + d), d, &why));
  EXPECT_NE(why.find("with a digest"), std::string::npos) << why;
  EXPECT_FALSE(store.try_put_tag(image_ref("ghcr.io/org/app@" + d), d, &why));
  EXPECT_FALSE(store.get_tag(image_ref("ghcr.io/org/app@" + d)));
  EXPECT_FALSE(fs::exists(dir / "v1"));
}

TEST(Store, InvalidDigestsAreNeverStored) {
  const std::vector<std::string> invalid = {
      "",
      "sha256:",
      "sha256:abc",
      "sha256:" + std::string(63, 'a'),
      "sha256:" + std::string(65, 'a'),
      "sha256:" + std::string(64, 'A'),
      "sha256:" + std::string(64, 'g'),
      "SHA256:" + std::string(64, 'a'),
      "sha512:" + std::string(128, 'a'),
      " sha256:" + std::string(64, 'a'),
      "sha256:../../../../" + std::string(52, 'a'),
  };
  TempDir dir;
  Store store(dir.path());
  for (const std::string& d : invalid) {
    std::string why;
    EXPECT_FALSE(store.try_put_digest(digest_entry(d, "linux/amd64"), &why)) << d;
    EXPECT_NE(why.find("invalid digest"), std::string::npos) << why;
    EXPECT_FALSE(store.get_digest(d)) << d;
    why.clear();
    EXPECT_FALSE(store.try_put_tag(image_ref("nginx:1"), d, &why)) << d;
    EXPECT_NE(why.find("sha256:"), std::string::npos) << why;
  }
  EXPECT_FALSE(fs::exists(dir / "v1"));
}

TEST(Store, EntriesWithoutPlatformsOrWithHugeMediaTypesAreNotStored) {
  TempDir dir;
  Store store(dir.path());
  std::string why;
  EXPECT_FALSE(store.try_put_digest(digest_entry(digest_of(1), ""), &why));
  EXPECT_NE(why.find("no platforms"), std::string::npos) << why;
  EXPECT_FALSE(
      store.try_put_digest(digest_entry(digest_of(2), "linux/amd64", std::string(256, 'x')), &why));
  EXPECT_NE(why.find("media type"), std::string::npos) << why;
  EXPECT_TRUE(store.try_put_digest(digest_entry(digest_of(3), "linux/amd64", ""), &why)) << why;
  EXPECT_EQ(store.get_digest(digest_of(3))->media_type, "");
}

TEST(Store, FreshnessFollowsTheClock) {
  TempDir dir;
  FakeClock clock;
  Store store(dir.path(), clock.clock());
  ASSERT_TRUE(store.try_put_tag(image_ref("redis:7"), digest_of(1)));
  TagEntry entry = *store.get_tag(image_ref("redis:7"));
  ASSERT_EQ(entry.fetched, kT0);

  struct Row {
    std::chrono::system_clock::duration now_minus_fetched;
    std::chrono::seconds ttl;
    bool fresh;
  };
  const std::vector<Row> rows = {
      {0s, 1h, true},
      {1h - 1s, 1h, true},
      {1h - 1ms, 1h, true},
      {1h, 1h, false},  // at the TTL: stale
      {1h + 1s, 1h, false},
      {30 * 24h, 7 * 24h, false},
      {0s, 0s, false},  // ttl 0: always ask the registry
      {-1s, 0s, false},
      {-30min, 1h, true},  // a little in the future: clock skew, still trusted
      {-(1h - 1s), 1h, true},
      {-1h, 1h, false},  // as far ahead as the TTL: not believable
      {-(24h * 365), 1h, false},
  };
  for (const Row& row : rows) {
    clock.set(kT0 + row.now_minus_fetched);
    EXPECT_EQ(store.fresh(entry, row.ttl), row.fresh)
        << "age " << std::chrono::duration_cast<std::chrono::milliseconds>(row.now_minus_fetched)
        << " ttl " << row.ttl;
  }
}

// A file at an entry's place that is not what archfit wrote there.
struct Damage {
  const char* name;
  std::string content;
};

TEST(Store, DamagedDigestEntriesAreMissesThatAPutRepairs) {
  TempDir dir;
  FakeClock clock;
  Store store(dir.path(), clock.clock());
  const std::string d = digest_of(0x5eed);
  ASSERT_TRUE(store.try_put_digest(digest_entry(d, "linux/amd64")));
  const std::string good = read_file(store.digest_path(d));
  auto with = [&good](const std::string& from, const std::string& to) {
    std::string s = good;
    s.replace(s.find(from), from.size(), to);
    return s;
  };
  const std::vector<Damage> cases = {
      {"empty", ""},
      {"truncated", good.substr(0, good.size() / 2)},
      {"no final brace", good.substr(0, good.rfind('}'))},
      {"trailing garbage", good + "{}"},
      {"not an object", "[1]"},
      {"binary", std::string("\0\xff\xfe{", 4)},
      {"version 2", with("\"version\":1", "\"version\":2")},
      {"version as string", with("\"version\":1", "\"version\":\"1\"")},
      {"version 1.0", with("\"version\":1", "\"version\":1.0")},
      {"no version", with("\"version\":1,", "")},
      {"kind tag", with("\"kind\":\"digest\"", "\"kind\":\"tag\"")},
      {"kind unknown", with("\"kind\":\"digest\"", "\"kind\":\"blob\"")},
      {"other digest", with(d, digest_of(0x5eee))},
      {"invalid digest", with(d, "sha256:xyz")},
      {"garbage platform", with("\"linux/amd64\"", "\"not a platform!\"")},
      {"os alone", with("\"linux/amd64\"", "\"linux\"")},
      {"platform not a string", with("\"linux/amd64\"", "42")},
      {"no platforms", with("\"linux/amd64\"", "")},
      {"platforms not an array", with("[\"linux/amd64\"]", "\"linux/amd64\"")},
      {"media type not a string", with("\"application/vnd.oci.image.index.v1+json\"", "null")},
      {"negative time", with("1718000000", "-5")},
      {"time as string", with("1718000000", "\"2024-06-10T06:13:20Z\"")},
      {"time past 2262", with("1718000000", "99999999999")},
      {"too big", good + std::string(70 * 1024, ' ')},
      {"deep nesting", std::string(100000, '[') + std::string(100000, ']')},
  };
  for (const Damage& c : cases) {
    write_raw(store.digest_path(d), c.content);
    EXPECT_FALSE(store.get_digest(d)) << c.name;
    clock.set(kT0 + 1h);
    std::string why;
    ASSERT_TRUE(store.try_put_digest(digest_entry(d, "linux/arm64"), &why))
        << c.name << ": " << why;
    std::optional<DigestEntry> repaired = store.get_digest(d);
    ASSERT_TRUE(repaired) << c.name;
    EXPECT_EQ(repaired->platforms.str(), "linux/arm64") << c.name;
    EXPECT_EQ(repaired->written, kT0 + 1h) << c.name;
  }

  // A directory or a symbolic link where the file should be is a miss too.
  fs::remove(store.digest_path(d));
  fs::create_symlink(dir / "elsewhere.json", store.digest_path(d));
  write_raw(dir / "elsewhere.json", good);
  EXPECT_FALSE(store.get_digest(d));
  fs::remove(store.digest_path(d));
  fs::create_directories(store.digest_path(d));
  EXPECT_FALSE(store.get_digest(d));
}

TEST(Store, DamagedOrForeignTagEntriesAreMissesThatAPutRepairs) {
  TempDir dir;
  FakeClock clock;
  Store store(dir.path(), clock.clock());
  const image::Reference nginx = image_ref("nginx:1.25");
  ASSERT_TRUE(store.try_put_tag(nginx, digest_of(1)));
  const std::string good = read_file(store.tag_path(nginx));
  // A valid entry of another reference, as a hash collision or a copied file
  // would leave it.
  ASSERT_TRUE(store.try_put_tag(image_ref("nginx:1.26"), digest_of(2)));
  const std::string foreign = read_file(store.tag_path(image_ref("nginx:1.26")));
  auto with = [&good](const std::string& from, const std::string& to) {
    std::string s = good;
    s.replace(s.find(from), from.size(), to);
    return s;
  };
  const std::vector<Damage> cases = {
      {"empty", ""},
      {"truncated", good.substr(0, good.size() - 12)},
      {"foreign reference", foreign},
      {"reference not canonical", with("docker.io/library/nginx:1.25", "nginx:1.25")},
      {"version 2", with("\"version\":1", "\"version\":2")},
      {"kind digest", with("\"kind\":\"tag\"", "\"kind\":\"digest\"")},
      {"no kind", with("\"kind\":\"tag\",", "")},
      {"invalid digest", with(digest_of(1), "sha256:" + std::string(64, 'Z'))},
      {"no fetched", with(",\"fetched\":1718000000", "")},
      {"fetched fraction", with("1718000000", "1718000000.5")},
  };
  for (const Damage& c : cases) {
    write_raw(store.tag_path(nginx), c.content);
    EXPECT_FALSE(store.get_tag(nginx)) << c.name;
    std::string why;
    ASSERT_TRUE(store.try_put_tag(nginx, digest_of(3), &why)) << c.name << ": " << why;
    ASSERT_TRUE(store.get_tag(nginx)) << c.name;
    EXPECT_EQ(store.get_tag(nginx)->digest, digest_of(3)) << c.name;
  }
}

TEST(Store, UnknownKeysInAnEntryAreIgnored) {
  TempDir dir;
  Store store(dir.path());
  const std::string d = digest_of(9);
  write_raw(store.digest_path(d),
            "{\"written\": 5, \"comment\": {\"x\": [1]}, \"platforms\": "
            "[\"linux/aarch64\"], \"digest\": \"" +
                d + "\", \"kind\": \"digest\", \"version\": 1}");
  std::optional<DigestEntry> got = store.get_digest(d);
  ASSERT_TRUE(got);
  EXPECT_EQ(got->platforms.str(), "linux/arm64");
  EXPECT_EQ(got->media_type, "");
  EXPECT_EQ(got->written, TimePoint(5s));
}

// True when creating a file in `dir` fails, as it does for anyone but root
// (or a process with CAP_DAC_OVERRIDE) in a directory without write permission.
bool writes_are_refused(const fs::path& dir) {
  fs::path probe = dir / "probe";
  int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
  if (fd < 0) return true;
  ::close(fd);
  ::unlink(probe.c_str());
  return false;
}

TEST(Store, UnwritableCacheMakesPutReturnFalseWithAReasonAndNoTempFile) {
  TempDir dir;
  const std::string d = digest_of(0xabc);

  // Permissions: effective unless the tests run as root.
  {
    Store store(dir / "ro");
    ASSERT_TRUE(store.try_put_digest(digest_entry(digest_of(0xab0), "linux/amd64")));
    fs::path shard = store.digest_path(d).parent_path();
    fs::permissions(shard, fs::perms::owner_read | fs::perms::owner_exec);
    fs::permissions(store.version_dir() / "digests/sha256",
                    fs::perms::owner_read | fs::perms::owner_exec);
    if (writes_are_refused(shard)) {
      std::string why;
      EXPECT_FALSE(store.try_put_digest(digest_entry(d, "linux/amd64"), &why));
      EXPECT_NE(why.find("cannot write " + store.digest_path(d).string()), std::string::npos)
          << why;
      EXPECT_NE(why.find("Permission denied"), std::string::npos) << why;
      EXPECT_FALSE(store.try_put_digest(digest_entry(digest_of(0x1), "linux/amd64"), &why));
      EXPECT_NE(why.find("Permission denied"), std::string::npos) << why;
    }
    EXPECT_TRUE(temp_files(dir / "ro").empty());
  }

  // A file where a directory should be: refused for root too.
  {
    Store store(dir / "blocked");
    write_raw(store.version_dir(), "not a directory");
    std::string why;
    EXPECT_FALSE(store.try_put_digest(digest_entry(d, "linux/amd64"), &why));
    EXPECT_NE(why.find("cannot write " + store.digest_path(d).string() + ": Not a directory"),
              std::string::npos)
        << why;
    EXPECT_FALSE(store.try_put_tag(image_ref("nginx"), d, &why));
    EXPECT_NE(why.find("Not a directory"), std::string::npos) << why;
    EXPECT_FALSE(store.get_digest(d));
    EXPECT_TRUE(store.list().empty());
  }

  // The temporary file is written but the rename fails (a non-empty directory
  // is in the way): the temporary file goes.
  {
    Store store(dir / "rename");
    write_raw(store.digest_path(d) / "inside", "x");
    std::string why;
    EXPECT_FALSE(store.try_put_digest(digest_entry(d, "linux/amd64"), &why));
    EXPECT_NE(why.find("cannot write " + store.digest_path(d).string()), std::string::npos) << why;
    EXPECT_TRUE(temp_files(dir / "rename").empty());
    EXPECT_TRUE(fs::exists(store.digest_path(d) / "inside"));
  }
}

TEST(Store, ListClassifiesAndSortsEveryFile) {
  TempDir dir;
  FakeClock clock;
  Store store(dir.path(), clock.clock());
  ASSERT_TRUE(store.try_put_digest(digest_entry(digest_of(2), "linux/amd64")));
  clock.set(kT0 + 10s);
  ASSERT_TRUE(store.try_put_digest(digest_entry(digest_of(1), "linux/arm64,linux/amd64")));
  ASSERT_TRUE(store.try_put_tag(image_ref("redis:7"), digest_of(1)));
  ASSERT_TRUE(store.try_put_tag(image_ref("ghcr.io/a/b:1"), digest_of(2)));
  // Garbage: a leftover temporary file, a corrupt entry, a foreign tag file,
  // a digest entry in the wrong shard, a stray file.
  write_raw(store.version_dir() / "tags/.tmp-1-0123456789abcdef", "{");
  write_raw(store.digest_path(digest_of(3)), "{\"version\":1}");
  write_raw(store.tag_path(image_ref("x.io/y:1")), read_file(store.tag_path(image_ref("redis:7"))));
  fs::path misplaced =
      store.version_dir() / "digests/sha256/ff" / (digest_of(4).substr(7) + ".json");
  write_raw(misplaced, "");
  fs::copy_file(store.digest_path(digest_of(1)), misplaced, fs::copy_options::overwrite_existing);
  // Not archfit's: never listed (and so never removed).
  write_raw(store.version_dir() / "README", "hello");
  write_raw(store.version_dir() / "tags/notes.json", "{}");

  std::vector<ListedEntry> listed = store.list();
  ASSERT_EQ(listed.size(), 8u);
  using K = ListedEntry::Kind;
  EXPECT_EQ(listed[0].kind, K::Digest);
  EXPECT_EQ(listed[0].key, digest_of(1));
  EXPECT_EQ(listed[0].platforms.str(), "linux/amd64,linux/arm64");
  EXPECT_EQ(listed[0].time, kT0 + 10s);
  EXPECT_EQ(listed[0].bytes, fs::file_size(store.digest_path(digest_of(1))));
  EXPECT_EQ(listed[0].path, store.digest_path(digest_of(1)));
  EXPECT_EQ(listed[1].key, digest_of(2));
  EXPECT_EQ(listed[1].time, kT0);
  EXPECT_EQ(listed[2].kind, K::Tag);
  EXPECT_EQ(listed[2].key, "docker.io/library/redis:7");
  EXPECT_EQ(listed[2].digest, digest_of(1));
  EXPECT_EQ(listed[3].kind, K::Tag);
  EXPECT_EQ(listed[3].key, "ghcr.io/a/b:1");
  std::set<fs::path> invalid;
  for (std::size_t i = 4; i < listed.size(); ++i) {
    EXPECT_EQ(listed[i].kind, K::Invalid) << listed[i].path;
    EXPECT_EQ(listed[i].key, "");
    invalid.insert(listed[i].path);
  }
  EXPECT_EQ(invalid, (std::set<fs::path>{store.version_dir() / "tags/.tmp-1-0123456789abcdef",
                                         store.digest_path(digest_of(3)),
                                         store.tag_path(image_ref("x.io/y:1")), misplaced}));
  EXPECT_TRUE(
      std::is_sorted(listed.begin() + 4, listed.end(),
                     [](const ListedEntry& a, const ListedEntry& b) { return a.path < b.path; }));
  EXPECT_TRUE(Store(dir / "missing").list().empty());
}

TEST(Store, PruneRemovesOldEntriesAndLeftoversButKeepsYoungOnes) {
  TempDir dir;
  FakeClock clock;
  // Three shards: old, young and corrupt entries each in a directory of their own.
  const std::string old_digest = "sha256:" + std::string(64, 'a');
  const std::string young_digest = "sha256:" + std::string(64, 'b');
  const std::string corrupt_digest = "sha256:" + std::string(64, 'c');
  // Invalid files go by their modification time: keep the fake clock near the real one.
  const TimePoint now = std::chrono::floor<std::chrono::seconds>(std::chrono::system_clock::now());
  Store store(dir.path(), clock.clock());
  clock.set(now - 40 * 24h);
  ASSERT_TRUE(store.try_put_digest(digest_entry(old_digest, "linux/amd64")));
  ASSERT_TRUE(store.try_put_tag(image_ref("old:1"), old_digest));
  clock.set(now - 29 * 24h);
  ASSERT_TRUE(store.try_put_digest(digest_entry(young_digest, "linux/amd64")));
  ASSERT_TRUE(store.try_put_tag(image_ref("young:1"), young_digest));
  fs::path old_temp = store.version_dir() / "tags/.tmp-99-00000000deadbeef";
  fs::path new_temp = store.version_dir() / "tags/.tmp-98-00000000beefdead";
  fs::path old_corrupt = store.digest_path(corrupt_digest);
  write_raw(old_temp, "{\"version\":");
  write_raw(new_temp, "{\"version\":");
  write_raw(old_corrupt, "nonsense");
  set_mtime(old_temp, now - 2min);
  set_mtime(old_corrupt, now - 2min);
  set_mtime(new_temp, now - 10s);

  clock.set(now);
  PruneResult result = store.prune(30 * 24h);
  EXPECT_EQ(result.removed, 4u);
  EXPECT_EQ(result.kept, 3u);
  std::set<fs::path> removed;
  std::uintmax_t bytes = 0;
  for (const ListedEntry& e : result.entries) {
    removed.insert(e.path);
    bytes += e.bytes;
  }
  EXPECT_EQ(removed,
            (std::set<fs::path>{store.digest_path(old_digest), store.tag_path(image_ref("old:1")),
                                old_temp, old_corrupt}));
  EXPECT_EQ(result.bytes_freed, bytes);
  EXPECT_GT(bytes, 100u);
  for (const fs::path& p : removed)
    EXPECT_FALSE(fs::exists(p)) << p;
  EXPECT_TRUE(store.get_digest(young_digest));
  EXPECT_TRUE(store.get_tag(image_ref("young:1")));
  EXPECT_FALSE(store.get_tag(image_ref("old:1")));
  EXPECT_TRUE(fs::exists(new_temp));
  // The shard of the removed digest is gone; the others stay.
  EXPECT_FALSE(fs::exists(store.digest_path(old_digest).parent_path()));
  EXPECT_TRUE(fs::exists(store.digest_path(young_digest).parent_path()));

  // Nothing old is left; pruning again removes nothing.
  PruneResult again = store.prune(30 * 24h);
  EXPECT_EQ(again.removed, 0u);
  EXPECT_EQ(again.kept, 3u);
  // After a puts into a removed shard directory works again.
  EXPECT_TRUE(
      store.try_put_digest(digest_entry("sha256:" + std::string(63, 'a') + "0", "linux/amd64")));
  // 0 removes every entry older than now, but not a temporary file in use.
  clock.set(now + 1s);
  EXPECT_EQ(store.prune(0s).removed, 3u);
  EXPECT_TRUE(fs::exists(new_temp));
}

TEST(Store, PruneOverTheLongestDurationAndHostileFileTimesKeepsFreshEntries) {
  // The longest duration keeps everything; a corrupt file dated 1900 or
  // 2446 (as touch(1) may) is old or young, never a wrapped age (UBSan
  // checks the arithmetic).
  TempDir dir;
  Store store(dir.path());
  ASSERT_TRUE(store.try_put_digest(digest_entry(digest_of(1), "linux/amd64")));
  fs::path past = store.digest_path(digest_of(2));
  fs::path future = store.digest_path(digest_of(3));
  write_raw(past, "nonsense");
  write_raw(future, "nonsense");
  struct timespec times[2] = {{0, UTIME_OMIT}, {-2208988800, 0}};  // 1900-01-01
  ASSERT_EQ(::utimensat(AT_FDCWD, past.c_str(), times, 0), 0);
  times[1] = {15000000000, 0};  // the year 2445
  ASSERT_EQ(::utimensat(AT_FDCWD, future.c_str(), times, 0), 0);
  PruneResult result = store.prune(kLongestDuration);
  EXPECT_EQ(result.kept, 2u);
  EXPECT_EQ(result.removed, 1u);
  EXPECT_FALSE(fs::exists(past));
  EXPECT_TRUE(fs::exists(future));
  EXPECT_TRUE(store.get_digest(digest_of(1)));
}

TEST(Store, ClearRemovesTheVersionDirectoryOnly) {
  TempDir dir;
  Store store(dir.path());
  ASSERT_TRUE(store.try_put_digest(digest_entry(digest_of(1), "linux/amd64")));
  ASSERT_TRUE(store.try_put_tag(image_ref("nginx"), digest_of(1)));
  write_raw(store.version_dir() / "tags/.tmp-1-0000000000000002", "x");
  write_raw(dir / "keep.txt", "mine");
  write_raw(dir / "v2/digests/x.json", "{}");

  std::uintmax_t bytes = fs::file_size(store.digest_path(digest_of(1))) +
                         fs::file_size(store.tag_path(image_ref("nginx"))) + 1;
  PruneResult result = store.clear();
  EXPECT_EQ(result.removed, 3u);
  EXPECT_EQ(result.bytes_freed, bytes);
  EXPECT_EQ(result.kept, 0u);
  EXPECT_FALSE(fs::exists(store.version_dir()));
  EXPECT_EQ(read_file(dir / "keep.txt"), "mine");
  EXPECT_TRUE(fs::exists(dir / "v2/digests/x.json"));
  EXPECT_FALSE(store.get_digest(digest_of(1)));
  EXPECT_EQ(store.clear().removed, 0u);
  // The cache works again after a clear.
  EXPECT_TRUE(store.try_put_tag(image_ref("nginx"), digest_of(1)));
  EXPECT_TRUE(store.get_tag(image_ref("nginx")));
}

TEST(Store, TheFirstWriteLeavesTheCacheDirectoryTag) {
  TempDir dir;
  Store store(dir / "cache");
  EXPECT_FALSE(store.is_marked());
  ASSERT_TRUE(store.try_put_tag(image_ref("nginx"), digest_of(1)));
  EXPECT_TRUE(store.is_marked());
  std::string tag = read_file(dir / "cache" / "CACHEDIR.TAG");
  EXPECT_TRUE(tag.starts_with("Signature: 8a477f597d28d172789f06886806bc55\n")) << tag;
  EXPECT_NE(tag.find("archfit"), std::string::npos);
  // A tag written by another program does not make a directory archfit's.
  TempDir other;
  write_raw(other / "CACHEDIR.TAG", "Signature: 8a477f597d28d172789f06886806bc55\n");
  EXPECT_FALSE(Store(other.path()).is_marked());
  // Nor does a link to archfit's own tag.
  TempDir linked;
  fs::create_symlink(dir / "cache" / "CACHEDIR.TAG", linked / "CACHEDIR.TAG");
  EXPECT_FALSE(Store(linked.path()).is_marked());
}

// --cache-dir naming a source tree with a v1/ folder of its own.
TEST(Store, PruneAndClearRefuseADirectoryArchfitDidNotMake) {
  TempDir dir;
  write_raw(dir / "v1/api/users.go", "package v1\n");
  write_raw(dir / "v1/tags/" / (std::string(64, 'a') + ".json"), "{}");
  set_mtime(dir / "v1/tags/" / (std::string(64, 'a') + ".json"),
            std::chrono::system_clock::now() - 48h);
  Store store(dir.path());
  for (auto run : {+[](Store& s) { s.prune(0s); }, +[](Store& s) { s.clear(); }}) {
    try {
      run(store);
      ADD_FAILURE() << "removed files from an unmarked directory";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Usage);
      EXPECT_NE(e.message().find("does not look like an archfit cache"), std::string::npos)
          << e.message();
      EXPECT_NE(e.message().find(dir.path().string()), std::string::npos);
    }
  }
  EXPECT_EQ(read_file(dir / "v1/api/users.go"), "package v1\n");
  EXPECT_TRUE(fs::exists(dir / "v1/tags/" / (std::string(64, 'a') + ".json")));
  // A directory with no v1/ at all has nothing to remove: no error.
  TempDir empty;
  EXPECT_EQ(Store(empty.path()).prune(0s).removed, 0u);
  EXPECT_EQ(Store(empty.path() / "missing").clear().removed, 0u);
}

TEST(Store, PruneAndClearRemoveOnlyArchfitsFilesAndNeverFollowALink) {
  TempDir dir;
  const TimePoint now = std::chrono::floor<std::chrono::seconds>(std::chrono::system_clock::now());
  FakeClock clock;
  clock.set(now - 40 * 24h);
  Store store(dir / "cache", clock.clock());
  ASSERT_TRUE(store.try_put_digest(digest_entry(digest_of(1), "linux/amd64")));
  ASSERT_TRUE(store.try_put_tag(image_ref("nginx"), digest_of(1)));
  clock.set(now);
  // Elsewhere, files named and shaped like entries, reachable through links:
  // a digests/ directory, a shard, the tags directory of a second cache, and
  // one entry, each a link.
  const std::string entry_name = std::string(64, 'b') + ".json";
  fs::path elsewhere = dir / "elsewhere";
  write_raw(elsewhere / "sha256/bb" / entry_name, "{}");
  write_raw(elsewhere / entry_name, "{}");
  write_raw(elsewhere / "api/users.go", "package v1\n");
  for (const fs::path& p : {elsewhere / "sha256/bb" / entry_name, elsewhere / entry_name})
    set_mtime(p, now - 48h);
  fs::create_symlink(elsewhere / "sha256/bb", store.version_dir() / "digests/sha256/bb");
  fs::create_symlink(elsewhere / entry_name, store.version_dir() / "tags" / entry_name);
  // Files of the user's own beside the entries.
  write_raw(store.version_dir() / "tags/README.md", "mine");
  write_raw(store.version_dir() / "digests/sha256/00/notes.txt", "mine");
  set_mtime(store.version_dir() / "tags/README.md", now - 48h);

  std::vector<ListedEntry> listed = store.list();
  EXPECT_EQ(listed.size(), 2u);
  PruneResult pruned = store.prune(30 * 24h);
  EXPECT_EQ(pruned.removed, 2u);
  PruneResult cleared = store.clear();
  EXPECT_EQ(cleared.removed, 0u);
  EXPECT_TRUE(fs::exists(elsewhere / "sha256/bb" / entry_name));
  EXPECT_TRUE(fs::exists(elsewhere / entry_name));
  EXPECT_EQ(read_file(elsewhere / "api/users.go"), "package v1\n");
  EXPECT_EQ(read_file(store.version_dir() / "tags/README.md"), "mine");
  EXPECT_EQ(read_file(store.version_dir() / "digests/sha256/00/notes.txt"), "mine");
  EXPECT_TRUE(fs::is_symlink(store.version_dir() / "tags" / entry_name));

  // The version directory itself a link: nothing through it is listed or removed.
  TempDir linked;
  Store second(linked.path());
  ASSERT_TRUE(second.try_put_tag(image_ref("redis"), digest_of(2)));
  fs::remove_all(second.version_dir());
  write_raw(elsewhere / "v1/tags" / entry_name, "{}");
  set_mtime(elsewhere / "v1/tags" / entry_name, now - 48h);
  fs::create_symlink(elsewhere / "v1", second.version_dir());
  EXPECT_TRUE(second.list().empty());
  EXPECT_EQ(second.prune(0s).removed, 0u);
  EXPECT_EQ(second.clear().removed, 0u);
  EXPECT_TRUE(fs::exists(elsewhere / "v1/tags" / entry_name));
  EXPECT_TRUE(fs::is_symlink(second.version_dir()));
}

TEST(Store, AFifoNamedLikeAnEntryIsSkippedWithoutBlocking) {
  TempDir dir;
  Store store(dir.path());
  ASSERT_TRUE(store.try_put_tag(image_ref("nginx"), digest_of(1)));
  fs::path fifo = store.version_dir() / "tags" / (std::string(64, 'c') + ".json");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  EXPECT_EQ(store.list().size(), 1u);
  EXPECT_EQ(store.clear().removed, 1u);
  EXPECT_TRUE(fs::exists(fifo));
}

TEST(Store, SixHundredWarmReadsAreQuick) {
  TempDir dir;
  Store store(dir.path());
  std::vector<image::Reference> refs;
  for (unsigned i = 0; i < 300; ++i) {
    ASSERT_TRUE(store.try_put_digest(digest_entry(digest_of(i), "linux/amd64,linux/arm64")));
    refs.push_back(image_ref("registry.example.com/team/app" + std::to_string(i) + ":v1"));
    ASSERT_TRUE(store.try_put_tag(refs.back(), digest_of(i)));
  }
  auto start = std::chrono::steady_clock::now();
  std::size_t hits = 0;
  for (unsigned i = 0; i < 300; ++i) {
    hits += store.get_digest(digest_of(i)).has_value();
    hits += store.get_tag(refs[i]).has_value();
  }
  auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(hits, 600u);
  // The budget is 50 ms on an idle machine; this only catches a pathology
  // (sanitizers and shared CI machines are slow).
  EXPECT_LT(elapsed, 1s);
  std::cout << "600 reads: "
            << std::chrono::duration_cast<std::chrono::microseconds>(elapsed).count() << " us\n";
}

// docs/cache.md shows the format; its examples must be entries the store reads,
// at the places its layout shows.
TEST(Store, DocumentedEntriesAndLayoutAreTrue) {
  std::string doc = read_file(std::string(ARCHFIT_SOURCE_DIR) + "/docs/cache.md");
  std::size_t begin = doc.find("```json\n");
  ASSERT_NE(begin, std::string::npos);
  begin += 8;
  std::string block = doc.substr(begin, doc.find("```", begin) - begin);
  std::string digest_line = block.substr(0, block.find('\n') + 1);
  std::string tag_line = block.substr(digest_line.size());

  TempDir dir;
  Store store(dir.path());
  const std::string d = "sha256:5be1ecc7935f1dd85635d4feedaf660594030253cc97c9e9ca3819ffeac36b65";
  const image::Reference nginx = image_ref("nginx:1.25");
  write_raw(store.digest_path(d), digest_line);
  write_raw(store.tag_path(nginx), tag_line);
  std::optional<DigestEntry> digest = store.get_digest(d);
  ASSERT_TRUE(digest) << digest_line;
  EXPECT_EQ(digest->platforms.str(), "linux/amd64,linux/arm/v7,linux/arm64");
  EXPECT_EQ(digest->written, kT0);
  std::optional<TagEntry> tag = store.get_tag(nginx);
  ASSERT_TRUE(tag) << tag_line;
  EXPECT_EQ(tag->digest, d);

  // What archfit writes is byte for byte what the documentation shows.
  FakeClock clock;
  Store writer(dir / "again", clock.clock());
  DigestEntry entry = *digest;
  ASSERT_TRUE(writer.try_put_digest(entry));
  ASSERT_TRUE(writer.try_put_tag(nginx, d));
  EXPECT_EQ(read_file(writer.digest_path(d)), digest_line);
  EXPECT_EQ(read_file(writer.tag_path(nginx)), tag_line);

  for (const fs::path& p : {store.digest_path(d), store.tag_path(nginx)}) {
    EXPECT_NE(doc.find(p.lexically_relative(store.version_dir()).string()), std::string::npos) << p;
  }
}

// --- Several processes at once -------------------------------------------

constexpr unsigned kProcesses = 8;
constexpr unsigned kOperations = 300;
constexpr unsigned kKeys = 24;

// What any process writes for key k, so that a reader can check what it got.
DigestEntry expected_digest_entry(unsigned k) {
  std::string platforms = "linux/amd64";
  if (k % 2) platforms += ",linux/arm64";
  if (k % 3 == 0) platforms += ",linux/arm/v7,linux/ppc64le";
  return digest_entry(digest_of(k), platforms.c_str());
}

image::Reference tag_ref(unsigned k) {
  return image_ref("registry.example.com/shared/app:tag" + std::to_string(k));
}

// The tag's digest as process p saw it (tags move between processes).
std::string tag_digest(unsigned k, unsigned p) {
  return digest_of(0x10000 + k * kProcesses + p);
}

bool is_expected(const DigestEntry& got, unsigned k) {
  DigestEntry want = expected_digest_entry(k);
  return got.digest == want.digest && got.media_type == want.media_type &&
         got.platforms == want.platforms && got.written.time_since_epoch().count() > 0;
}

bool is_expected(const TagEntry& got, unsigned k) {
  if (got.reference != tag_ref(k).canonical()) return false;
  for (unsigned p = 0; p < kProcesses; ++p) {
    if (got.digest == tag_digest(k, p)) return true;
  }
  return false;
}

// One child's work; the exit status says what went wrong first.
int child(const fs::path& root, unsigned p) {
  try {
    Store store(root);
    for (unsigned i = 0; i < kOperations; ++i) {
      unsigned k = (i * 7 + p * 5) % kKeys;
      unsigned other = (i * 11 + p) % kKeys;
      switch (i % 3) {
        case 0: {
          if (!store.try_put_digest(expected_digest_entry(k))) return 10;
          auto got = store.get_digest(digest_of(k));  // written: never missing again
          if (!got || !is_expected(*got, k)) return 11;
          break;
        }
        case 1: {
          if (!store.try_put_tag(tag_ref(k), tag_digest(k, p))) return 12;
          auto got = store.get_tag(tag_ref(k));
          if (!got || !is_expected(*got, k)) return 13;
          break;
        }
        default: {
          if (auto got = store.get_digest(digest_of(other)); got && !is_expected(*got, other)) {
            return 14;
          }
          if (auto got = store.get_tag(tag_ref(other)); got && !is_expected(*got, other)) {
            return 15;
          }
          if (i % 50 == 2) {
            for (const ListedEntry& e : store.list()) {
              if (e.kind == ListedEntry::Kind::Invalid &&
                  e.path.filename().string().rfind(".tmp-", 0) != 0) {
                return 16;  // only a temporary file in flight may be invalid
              }
            }
          }
        }
      }
    }
    return 0;
  } catch (...) {
    return 20;
  }
}

TEST(StoreConcurrency, EightProcessesShareOneDirectory) {
  TempDir dir;
  // Children wait on a pipe so that they all start at once.
  int gate[2];
  ASSERT_EQ(::pipe(gate), 0);
  std::vector<pid_t> children;
  for (unsigned p = 0; p < kProcesses; ++p) {
    pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      ::close(gate[1]);
      char c;
      while (::read(gate[0], &c, 1) < 0) {
      }
      ::_exit(child(dir.path(), p));
    }
    children.push_back(pid);
  }
  ::close(gate[0]);
  ::close(gate[1]);  // go
  for (unsigned p = 0; p < kProcesses; ++p) {
    int status = 0;
    ASSERT_EQ(::waitpid(children[p], &status, 0), children[p]);
    EXPECT_TRUE(WIFEXITED(status)) << "child " << p << " status " << status;
    EXPECT_EQ(WEXITSTATUS(status), 0) << "child " << p << " failed check " << WEXITSTATUS(status);
  }

  Store store(dir.path());
  EXPECT_TRUE(temp_files(dir.path()).empty());
  std::vector<ListedEntry> listed = store.list();
  EXPECT_EQ(listed.size(), 2 * kKeys);
  for (const ListedEntry& e : listed)
    EXPECT_NE(e.kind, ListedEntry::Kind::Invalid) << e.path;
  for (unsigned k = 0; k < kKeys; ++k) {
    auto digest = store.get_digest(digest_of(k));
    ASSERT_TRUE(digest) << k;
    EXPECT_TRUE(is_expected(*digest, k)) << k;
    auto tag = store.get_tag(tag_ref(k));
    ASSERT_TRUE(tag) << k;
    EXPECT_TRUE(is_expected(*tag, k)) << k;
  }
}

}  // namespace
}  // namespace archfit::cache
