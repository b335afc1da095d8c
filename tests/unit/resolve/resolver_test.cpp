// The resolver's order of sources (lock, cache, registry), tag TTLs on an
// injected clock, offline mode and deduplication, against the real on-disk
// cache and a registry in memory that counts what it is asked.
#include <memory>

#include <gtest/gtest.h>

#include <archfit/cache/lock_file.hpp>
#include <archfit/cache/store.hpp>
#include <archfit/registry/protocol/client.hpp>
#include <archfit/resolve/resolver.hpp>

#include "support/fake_registry.hpp"
#include "support/process.hpp"

namespace archfit::resolve {
namespace {

using namespace std::chrono_literals;
using testing::FakeRegistry;
using testing::index_of;

const cache::TimePoint kT0{std::chrono::seconds(1718000000)};

struct World {
  ::archfit::testing::TempDir tmp;
  std::shared_ptr<cache::TimePoint> now = std::make_shared<cache::TimePoint>(kT0);
  cache::Store store{tmp / "cache", [now = now] { return *now; }};
  FakeRegistry registry;
  registry::Keychain keychain;
  std::unique_ptr<registry::Client> client;
  int connects = 0;

  World() {
    std::string amd = registry.add_image("linux", "amd64");
    std::string arm = registry.add_image("linux", "arm64");
    registry.tags["1"] = registry.add_manifest(
        "application/vnd.oci.image.index.v1+json",
        index_of({{amd, R"(,"platform":{"os":"linux","architecture":"amd64"})"},
                  {arm, R"(,"platform":{"os":"linux","architecture":"arm64"})"}}));
    registry.tags["2"] = amd;
  }

  Sources sources(bool offline = false) {
    Sources s;
    s.cache = &store;
    s.offline = offline;
    s.connect = [this]() -> registry::Client& {
      ++connects;
      if (!client)
        client = std::make_unique<registry::Client>(registry, keychain, registry::ClientOptions{});
      return *client;
    };
    return s;
  }

  // One run: a fresh resolver over the same cache, as a new process would.
  const Resolution* run(const std::string& image, std::chrono::seconds ttl = 24h,
                        bool offline = false, cache::LockFile lock = {}) {
    Resolver resolver({}, std::move(lock), "archfit.lock", sources(offline));
    image::Reference ref = image::Reference::parse(image);
    if (const Resolution* r = resolver.resolve_local(ref, ttl)) {
      last = *r;
      return &last;
    }
    resolver.resolve_all({Want{ref, ttl, {}}});
    const Resolution* r = resolver.find(ref);
    if (r == nullptr) return nullptr;
    last = *r;
    return &last;
  }

  std::size_t requests(const std::string& method, const std::string& part = "/manifests/") const {
    return registry.count(method, part);
  }

  Resolution last;
};

TEST(Resolver, ColdThenCachedThenExpired) {
  World w;
  const Resolution* r = w.run("registry.example/app:1");
  ASSERT_NE(r, nullptr);
  ASSERT_TRUE(r->ok) << r->error;
  EXPECT_EQ(r->source, Source::Registry);
  EXPECT_EQ(r->platforms.str(), "linux/amd64,linux/arm64");
  EXPECT_EQ(r->digest, w.registry.tags["1"]);
  EXPECT_EQ(w.requests("HEAD"), 0u) << "an empty cache cannot know the digest: GET at once";
  EXPECT_EQ(w.requests("GET"), 1u);

  // Within the TTL: the cache answers, the registry is not even connected.
  w.registry.seen.clear();
  w.connects = 0;
  *w.now = kT0 + 23h;
  r = w.run("registry.example/app:1");
  ASSERT_TRUE(r->ok);
  EXPECT_EQ(r->source, Source::Cache);
  EXPECT_EQ(r->platforms.str(), "linux/amd64,linux/arm64");
  EXPECT_TRUE(w.registry.seen.empty());
  EXPECT_EQ(w.connects, 0);

  // Past the TTL: one HEAD finds the same digest, which the cache knows.
  *w.now = kT0 + 25h;
  r = w.run("registry.example/app:1");
  ASSERT_TRUE(r->ok);
  EXPECT_EQ(r->source, Source::Registry);
  EXPECT_EQ(r->platforms.str(), "linux/amd64,linux/arm64");
  EXPECT_EQ(w.requests("HEAD"), 1u);
  EXPECT_EQ(w.requests("GET"), 0u);
  EXPECT_EQ(w.registry.count("GET", "/blobs/"), 0u);

  // The HEAD renewed the tag entry: fresh again for another TTL.
  w.registry.seen.clear();
  *w.now = kT0 + 48h;
  EXPECT_EQ(w.run("registry.example/app:1")->source, Source::Cache);
  EXPECT_TRUE(w.registry.seen.empty());
}

TEST(Resolver, ExpiredTagThatMovedIsFetched) {
  World w;
  ASSERT_TRUE(w.run("registry.example/app:1")->ok);
  w.registry.tags["1"] = w.registry.tags["2"];  // the tag now names a single-arch image
  w.registry.seen.clear();
  *w.now = kT0 + 25h;
  const Resolution* r = w.run("registry.example/app:1");
  ASSERT_TRUE(r->ok) << r->error;
  EXPECT_EQ(r->platforms.str(), "linux/amd64");
  EXPECT_EQ(w.requests("HEAD"), 1u);
  EXPECT_EQ(w.requests("GET"), 1u) << "the new digest's manifest";
  EXPECT_EQ(w.registry.count("GET", "/blobs/"), 1u) << "its config blob";
}

TEST(Resolver, ANewTagForACachedDigestCostsOneHead) {
  World w;
  ASSERT_TRUE(w.run("registry.example/app:1")->ok);
  w.registry.tags["1-alias"] = w.registry.tags["1"];
  w.registry.seen.clear();
  const Resolution* r = w.run("registry.example/app:1-alias");
  ASSERT_TRUE(r->ok) << r->error;
  EXPECT_EQ(r->platforms.str(), "linux/amd64,linux/arm64");
  EXPECT_EQ(w.requests("HEAD"), 1u);
  EXPECT_EQ(w.requests("GET"), 0u) << "the cache knew the digest";
}

TEST(Resolver, ZeroTtlAlwaysAsks) {
  World w;
  ASSERT_TRUE(w.run("registry.example/app:1", 0s)->ok);
  w.registry.seen.clear();
  EXPECT_EQ(w.run("registry.example/app:1", 0s)->source, Source::Registry);
  EXPECT_EQ(w.requests("HEAD"), 1u);
  EXPECT_EQ(w.requests("GET"), 0u);
}

TEST(Resolver, DigestReferencesNeverExpire) {
  World w;
  std::string image = "registry.example/app@" + w.registry.tags["1"];
  ASSERT_TRUE(w.run(image, 0s)->ok);
  w.registry.seen.clear();
  *w.now = kT0 + 24h * 365;
  const Resolution* r = w.run(image, 0s);
  EXPECT_EQ(r->source, Source::Cache);
  EXPECT_TRUE(w.registry.seen.empty());
}

TEST(Resolver, OfflineNeverConnects) {
  World w;
  const Resolution* r = w.run("registry.example/app:1", 24h, /*offline=*/true);
  ASSERT_NE(r, nullptr);
  EXPECT_FALSE(r->ok);
  EXPECT_EQ(r->error, "not in the lock file archfit.lock or the cache, and archfit is offline");
  EXPECT_EQ(w.connects, 0);
  EXPECT_TRUE(w.registry.seen.empty());
}

TEST(Resolver, OfflineTakesAStaleTagOverNothing) {
  World w;
  ASSERT_TRUE(w.run("registry.example/app:1")->ok);
  w.registry.seen.clear();
  w.connects = 0;
  *w.now = kT0 + 24h * 30;
  const Resolution* r = w.run("registry.example/app:1", 24h, /*offline=*/true);
  ASSERT_TRUE(r->ok);
  EXPECT_EQ(r->source, Source::Cache);
  EXPECT_EQ(w.connects, 0);
}

TEST(Resolver, TheLockComesFirst) {
  World w;
  cache::LockFile lock;
  lock.set(
      image::Reference::parse("registry.example/app:1"),
      cache::LockEntry{"sha256:" + std::string(64, 'a'), image::PlatformSet::parse("linux/s390x")});
  const Resolution* r = w.run("registry.example/app:1", 24h, false, lock);
  ASSERT_TRUE(r->ok);
  EXPECT_EQ(r->source, Source::Lock);
  EXPECT_EQ(r->platforms.str(), "linux/s390x");
  EXPECT_EQ(w.connects, 0);
}

TEST(Resolver, EachReferenceOnceAndFailuresKeptApart) {
  World w;
  Resolver resolver({}, {}, "archfit.lock", w.sources());
  std::vector<Want> wants;
  for (int i = 0; i < 20; ++i) {
    wants.push_back(Want{image::Reference::parse("registry.example/app:1"), 24h, {}});
    wants.push_back(Want{image::Reference::parse("registry.example/app:2"), 24h, {}});
    wants.push_back(Want{image::Reference::parse("registry.example/app:missing"), 24h, {}});
  }
  resolver.resolve_all(wants);
  EXPECT_EQ(w.requests("GET", "/manifests/1"), 1u);
  EXPECT_EQ(w.requests("GET", "/manifests/2"), 1u);
  EXPECT_EQ(w.requests("GET", "/manifests/missing"), 1u);
  EXPECT_EQ(w.connects, 1);
  const Resolution* missing =
      resolver.find(image::Reference::parse("registry.example/app:missing"));
  ASSERT_NE(missing, nullptr);
  EXPECT_FALSE(missing->ok);
  EXPECT_NE(missing->error.find("404 MANIFEST_UNKNOWN from registry.example"), std::string::npos)
      << missing->error;
  EXPECT_EQ(missing->cause(image::Reference::parse("registry.example/app:missing")).substr(0, 4),
            "404 ");
  EXPECT_TRUE(resolver.find(image::Reference::parse("registry.example/app:2"))->ok);
  Stats s = resolver.stats();
  EXPECT_EQ(s.images, 3u);
  EXPECT_EQ(s.from_registry, 2u);
  EXPECT_EQ(s.failed, 1u);
}

}  // namespace
}  // namespace archfit::resolve
