// Image -> platforms, once per distinct image of a run: from the lock file,
// else the cache, else the registry. Local answers (lock, cache) are cheap and
// given on demand; images that need the registry are gathered and resolved
// together, `concurrency` at a time, through one client. Answers are kept for
// the whole run.
#pragma once

#include <chrono>
#include <deque>
#include <functional>
#include <iosfwd>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <archfit/cache/lock_file.hpp>
#include <archfit/cache/store.hpp>
#include <archfit/image/platform_set.hpp>
#include <archfit/image/reference.hpp>
#include <archfit/registry/credentials/credential.hpp>
#include <archfit/registry/protocol/client.hpp>
#include <archfit/resolve/resolution.hpp>
#include <archfit/resolve/settings.hpp>

namespace archfit::resolve {

// One image a run needs, with what its uses say about it.
struct Want {
  image::Reference ref;
  // How long a cached tag answer is trusted (the shortest over its uses, by
  // imagePullPolicy).
  std::chrono::seconds tag_ttl{0};
  // Matched pull secrets of the templates that use it, tried before the keychain.
  std::vector<registry::Credential> credentials;
};

// Where answers may come from besides the lock file.
struct Sources {
  bool use_lock = true;           // `archfit lock` refreshes: it does not read the old lock
  cache::Store* cache = nullptr;  // nullptr = no cache
  bool offline = false;           // never touch the network; stale tags from the cache still count
  // Makes the registry client on first need (reading credentials, starting the
  // transport); nullptr = no registry access.
  std::function<registry::Client&()> connect;
};

struct Stats {
  std::size_t images = 0;
  std::size_t from_lock = 0;
  std::size_t from_cache = 0;
  std::size_t from_registry = 0;
  std::size_t failed = 0;
  std::uint64_t requests = 0;
  std::uint64_t heads = 0;
  std::uint64_t gets = 0;
  std::uint64_t bytes = 0;
  double seconds = 0;  // spent in resolve_all
};

// Shows how far a long resolution is: "resolving images 120/300, 45/s, ~4s left".
struct ProgressOptions {
  std::ostream* out = nullptr;            // nullptr = no progress line
  std::chrono::milliseconds delay{1000};  // show it only when a run takes longer
  // For a log rather than a terminal (CI): a whole line every `interval`,
  // also while no image finishes, instead of one line redrawn in place.
  bool log_lines = false;
  std::chrono::milliseconds interval{5000};
};

class Resolver {
 public:
  Resolver(Settings settings, cache::LockFile lock, std::string lock_name, Sources sources = {});
  ~Resolver();
  Resolver(const Resolver&) = delete;
  Resolver& operator=(const Resolver&) = delete;

  // The answer from the lock file or the cache; nullptr when only the registry
  // can tell (resolve_all it first). Without registry access a miss is a
  // failed Resolution, never nullptr. Safe to call from several threads.
  const Resolution* resolve_local(const image::Reference& ref,
                                  std::chrono::seconds tag_ttl = std::chrono::seconds(0));

  // Resolves every want that has no answer yet, concurrently.
  void resolve_all(const std::vector<Want>& wants, const ProgressOptions& progress = {});

  // The answer for an image seen before; nullptr otherwise.
  const Resolution* find(const image::Reference& ref) const;

  Stats stats() const;
  // The canonical names of images asked for that have no answer, sorted, at
  // most `most` of them (what a message can list).
  std::vector<std::string> unresolved(std::size_t most) const;
  const Settings& settings() const { return settings_; }
  const cache::LockFile& lock() const { return lock_; }
  bool can_reach_registry() const { return !sources_.offline && sources_.connect != nullptr; }

 private:
  const Resolution* store(const image::Reference& ref, Resolution r);
  // A local miss without registry access: the answer all such misses share.
  const Resolution* store_miss(const image::Reference& ref);
  std::unique_ptr<Resolution> from_local(const image::Reference& ref,
                                         std::chrono::seconds tag_ttl) const;
  Resolution from_registry(const Want& want);
  registry::Client& client();
  std::string miss_message() const;

  Settings settings_;
  cache::LockFile lock_;
  std::string lock_name_;
  Sources sources_;
  mutable std::mutex mutex_;
  // By canonical reference. The answers are owned by answers_ (a deque:
  // pointers handed out stay valid as answers are added), except that every
  // local miss shares one answer (its message names no image): a run over
  // many unknown images holds a pointer for each, not a message.
  std::unordered_map<std::string, const Resolution*> results_;
  std::deque<Resolution> answers_;
  const Resolution* miss_ = nullptr;
  std::mutex connecting_;  // held while the client is made
  registry::Client* client_ = nullptr;
  bool cache_has_digests_ = false;  // as resolve_all began
  Stats stats_;
};

}  // namespace archfit::resolve
