#include <algorithm>
#include <atomic>
#include <set>
#include <thread>
#include <utility>

#include <archfit/base/error.hpp>
#include <archfit/base/threads.hpp>
#include <archfit/resolve/resolver.hpp>

#include "resolve/progress.hpp"

namespace archfit::resolve {

std::string_view source_name(Source s) {
  switch (s) {
    case Source::Lock:
      return "lock";
    case Source::Cache:
      return "cache";
    case Source::Registry:
      return "registry";
  }
  return "lock";
}

Resolver::Resolver(Settings settings, cache::LockFile lock, std::string lock_name, Sources sources)
    : settings_(std::move(settings)),
      lock_(std::move(lock)),
      lock_name_(std::move(lock_name)),
      sources_(std::move(sources)) {}

Resolver::~Resolver() = default;

std::unique_ptr<Resolution> Resolver::from_local(const image::Reference& ref,
                                                 std::chrono::seconds tag_ttl) const {
  if (sources_.use_lock) {
    if (std::optional<cache::LockEntry> entry = lock_.find(ref)) {
      auto r = std::make_unique<Resolution>();
      r->ok = true;
      r->platforms = std::move(entry->platforms);
      r->digest = std::move(entry->digest);
      r->source = Source::Lock;
      return r;
    }
  }
  if (sources_.cache == nullptr) return nullptr;
  std::string digest = ref.digest();
  if (digest.empty()) {
    std::optional<cache::TagEntry> tag = sources_.cache->get_tag(ref);
    // Offline, a stale answer is better than none: the registry cannot be asked.
    if (!tag || (!sources_.offline && !sources_.cache->fresh(*tag, tag_ttl))) return nullptr;
    digest = tag->digest;
  }
  std::optional<cache::DigestEntry> entry = sources_.cache->get_digest(digest);
  if (!entry) return nullptr;
  auto r = std::make_unique<Resolution>();
  r->ok = true;
  r->platforms = std::move(entry->platforms);
  r->digest = std::move(digest);
  r->source = Source::Cache;
  return r;
}

std::string Resolver::miss_message() const {
  std::string where = sources_.use_lock
                          ? "not in the lock file " +
                                (lock_name_.empty() ? std::string("(none was found)") : lock_name_)
                          : std::string("not");
  if (sources_.cache != nullptr) where += sources_.use_lock ? " or the cache" : " in the cache";
  if (!sources_.use_lock && sources_.cache == nullptr) where = "not known";
  if (sources_.offline) where += ", and archfit is offline";
  return where;
}

const Resolution* Resolver::store(const image::Reference& ref, Resolution r) {
  std::lock_guard<std::mutex> hold(mutex_);
  auto [it, inserted] = results_.try_emplace(ref.canonical());
  if (!inserted) return it->second;
  ++stats_.images;
  if (!r.ok) {
    ++stats_.failed;
  } else if (r.source == Source::Lock) {
    ++stats_.from_lock;
  } else if (r.source == Source::Cache) {
    ++stats_.from_cache;
  } else {
    ++stats_.from_registry;
  }
  it->second = &answers_.emplace_back(std::move(r));
  return it->second;
}

const Resolution* Resolver::store_miss(const image::Reference& ref) {
  std::lock_guard<std::mutex> hold(mutex_);
  auto [it, inserted] = results_.try_emplace(ref.canonical());
  if (!inserted) return it->second;
  ++stats_.images;
  ++stats_.failed;
  if (miss_ == nullptr) {
    Resolution miss;
    miss.error = miss_message();
    miss_ = &answers_.emplace_back(std::move(miss));
  }
  it->second = miss_;
  return miss_;
}

const Resolution* Resolver::resolve_local(const image::Reference& ref,
                                          std::chrono::seconds tag_ttl) {
  if (const Resolution* known = find(ref)) return known;
  if (std::unique_ptr<Resolution> local = from_local(ref, tag_ttl)) {
    return store(ref, std::move(*local));
  }
  if (can_reach_registry()) return nullptr;
  return store_miss(ref);
}

// Not std::call_once: an exception out of its function (a client that
// cannot start) ends the process in pthread_once with glibc, where it must
// reach the caller as the run's error.
registry::Client& Resolver::client() {
  std::lock_guard<std::mutex> connecting(connecting_);
  if (client_ == nullptr) {
    registry::Client& made = sources_.connect();
    std::lock_guard<std::mutex> hold(mutex_);  // stats() reads client_
    client_ = &made;
  }
  return *client_;
}

Resolution Resolver::from_registry(const Want& want) {
  Resolution r;
  try {
    // With digests in the cache, a tag costs a HEAD first (Docker Hub does
    // not count it) and often nothing more: the cache knows the digest. An
    // empty cache cannot, and the tag's manifest is fetched at once, a round
    // trip sooner, for the same one counted pull.
    registry::KnownDigest known;
    if (cache_has_digests_) {
      known = [this](const std::string& digest) -> std::optional<image::PlatformSet> {
        if (auto entry = sources_.cache->get_digest(digest)) return std::move(entry->platforms);
        return std::nullopt;
      };
    }
    registry::Resolved found = client().resolve(want.ref, want.credentials, known);
    if (sources_.cache != nullptr) {
      // The cache only saves time: a write that fails costs a lookup next run.
      if (!found.known) {
        cache::DigestEntry entry;
        entry.digest = found.digest;
        entry.media_type = found.media_type;
        entry.platforms = found.platforms;
        sources_.cache->try_put_digest(std::move(entry));
      }
      if (!want.ref.has_digest()) sources_.cache->try_put_tag(want.ref, found.digest);
    }
    r.ok = true;
    r.platforms = std::move(found.platforms);
    r.digest = std::move(found.digest);
    r.source = Source::Registry;
  } catch (const Error& e) {
    r.error = e.what();
  }
  return r;
}

void Resolver::resolve_all(const std::vector<Want>& wants, const ProgressOptions& progress) {
  auto start = std::chrono::steady_clock::now();
  cache_has_digests_ = sources_.cache != nullptr && sources_.cache->has_digests();
  std::vector<const Want*> remote;
  std::set<std::string> seen;
  for (const Want& want : wants) {
    if (resolve_local(want.ref, want.tag_ttl) != nullptr) continue;
    if (seen.insert(want.ref.canonical()).second) remote.push_back(&want);
  }
  if (!remote.empty()) {
    // Credentials that cannot be read are a configuration error of the run,
    // not a failure of each image.
    client();
    ProgressLine line(progress.out, remote.size(), progress.delay, progress.log_lines,
                      progress.interval);
    std::atomic<std::size_t> next{0};
    auto work = [&] {
      for (std::size_t i = next++; i < remote.size(); i = next++) {
        store(remote[i]->ref, from_registry(*remote[i]));
        line.step();
      }
    };
    // As many images at once as a registry that speaks HTTP/2 takes requests;
    // the client holds back what a host over HTTP/1.1 does not take.
    std::size_t threads = std::min<std::size_t>(
        remote.size(), registry::multiplexed_concurrency(
                           static_cast<std::size_t>(std::max(1, settings_.concurrency))));
    std::vector<std::thread> pool;
    pool.reserve(threads);
    for (std::size_t t = 1; t < threads; ++t) {
      std::thread helper = try_thread(work);
      if (!helper.joinable()) break;  // the system gives no more: fewer at once
      pool.push_back(std::move(helper));
    }
    work();
    for (std::thread& t : pool)
      t.join();
  }
  std::lock_guard<std::mutex> hold(mutex_);
  stats_.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

const Resolution* Resolver::find(const image::Reference& ref) const {
  std::lock_guard<std::mutex> hold(mutex_);
  auto it = results_.find(ref.canonical());
  return it == results_.end() ? nullptr : it->second;
}

std::vector<std::string> Resolver::unresolved(std::size_t most) const {
  std::vector<std::string> out;
  {
    std::lock_guard<std::mutex> hold(mutex_);
    for (const auto& [name, answer] : results_)
      if (!answer->ok) out.push_back(name);
  }
  std::sort(out.begin(), out.end());
  if (out.size() > most) out.resize(most);
  return out;
}

Stats Resolver::stats() const {
  std::lock_guard<std::mutex> hold(mutex_);
  Stats s = stats_;
  if (client_ != nullptr) {
    const registry::ClientStats& c = client_->stats();
    s.requests = c.requests;
    s.heads = c.heads;
    s.gets = c.gets;
    s.bytes = c.bytes;
  }
  return s;
}

}  // namespace archfit::resolve
