// The on-disk cache of resolved platforms (docs/cache.md): what a
// manifest or index digest runs on (immutable, never expires) and which digest
// a tag pointed at when (trusted for resolve.tagTTL). Shared by every archfit
// process of a user; safe when several run at once.
//
// Layout under the cache root (--cache-dir), versioned so that a future format
// starts over beside this one instead of misreading it:
//   v1/digests/sha256/<first 2 hex>/<hex>.json   {"version":1,"kind":"digest",...}
//   v1/tags/<sha256 hex of the canonical reference>.json   {"version":1,"kind":"tag",...}
// Every write goes to a unique temporary file in the target directory and is
// renamed over the entry, so readers see a whole old entry or a whole new one.
// An entry that cannot be read, is not valid JSON, has another version or kind,
// or names another key than the one asked for is a miss, never an error; the
// next put replaces it. Credentials and tokens are never written here.
// Times in the files are whole seconds since the Unix epoch (entry_json.hpp
// shows the format); docs/cache.md is the user's description.
//
// The first write also leaves a CACHEDIR.TAG (the Cache Directory Tagging
// convention, naming archfit) in the root. prune and clear remove files only
// from a root that holds it, only files named as entries or as archfit's
// temporary files in the directories of the layout above, and never through
// a symbolic link: a --cache-dir that names a source tree with a v1/ folder of
// its own, or a v1 that links elsewhere, loses nothing.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <archfit/image/platform_set.hpp>
#include <archfit/image/reference.hpp>

namespace archfit::cache {

using TimePoint = std::chrono::system_clock::time_point;
// The clock behind TTLs and ages. A seam: tests pass a fixed or stepping clock.
using Clock = std::function<TimePoint()>;
Clock system_clock();

struct DigestEntry {
  std::string digest;            // "sha256:<64 hex>"
  std::string media_type;        // of the manifest or index; "" when not known
  image::PlatformSet platforms;  // attestations already left out; never empty
  TimePoint written{};           // when this entry was stored (whole seconds)
};

struct TagEntry {
  std::string reference;  // canonical reference with a tag and no digest
  std::string digest;     // what the tag pointed at
  TimePoint fetched{};    // when the registry said so (whole seconds)
};

// One file of the cache, for `archfit cache list` and prune.
struct ListedEntry {
  enum class Kind { Digest, Tag, Invalid };
  Kind kind = Kind::Invalid;
  std::filesystem::path path;
  std::string key;               // digest, canonical reference, or "" when Invalid
  std::string digest;            // Tag: the digest it points at; Digest: the key
  image::PlatformSet platforms;  // Digest entries only
  TimePoint time{};              // written (Digest) or fetched (Tag); file mtime when Invalid
  std::uintmax_t bytes = 0;
};

struct PruneResult {
  std::size_t removed = 0;  // entries and leftover temporary files removed
  std::size_t kept = 0;
  std::uintmax_t bytes_freed = 0;
  std::vector<ListedEntry> entries;  // the files removed, in list() order
};

class Store {
 public:
  // `root` is the cache directory itself (the v1/ directory goes inside it).
  // Nothing is created until the first put.
  explicit Store(std::filesystem::path root, Clock clock = system_clock());

  const std::filesystem::path& root() const { return root_; }
  std::filesystem::path version_dir() const;  // root/v1
  // Where an entry lives, whether or not it exists (for messages and tests).
  // `digest` must be a valid sha256 digest.
  std::filesystem::path digest_path(std::string_view digest) const;
  std::filesystem::path tag_path(const image::Reference& ref) const;

  // A digest must be "sha256:" + 64 lowercase hex; anything else is a miss and
  // is never stored (put returns false). A reference with a digest has no tag
  // entry: get_tag misses and put_tag returns false. Gets never throw.
  std::optional<DigestEntry> get_digest(std::string_view digest) const;
  std::optional<TagEntry> get_tag(const image::Reference& ref) const;
  // False while no digest entry has been written: such a cache cannot know
  // the digest a tag points at. Never throws.
  bool has_digests() const;

  // False (with the reason in *why) when the entry could not be written, e.g.
  // a read-only directory, or is not valid (bad digest, no platforms, a media
  // type over 255 bytes): the cache is an optimization, so callers report and
  // go on. Puts never throw. `written`/`fetched` are set from the clock.
  bool try_put_digest(DigestEntry entry, std::string* why = nullptr);
  bool try_put_tag(const image::Reference& ref, std::string_view digest,
                   std::string* why = nullptr);

  // True when the tag entry is younger than ttl; a ttl of 0 is never fresh.
  // An entry from the future (clock skew) is fresh while less than ttl ahead.
  bool fresh(const TagEntry& entry, std::chrono::seconds ttl) const;

  // Every file of the layout under version_dir(), sorted by kind, then key,
  // then path: entries, and as Invalid the files named like entries that are
  // not valid ones (corrupt, foreign, misplaced) and leftover temporary
  // files. Other files, links and directories are not archfit's and are not
  // listed.
  std::vector<ListedEntry> list() const;
  // Removes entries whose time is older than now - older_than, and every
  // Invalid file older than a minute (a temporary file younger than that may
  // belong to a process writing right now), then directories left empty.
  // Digest entries go by when they were written, used since or not.
  // Throws Error(Usage) when version_dir() exists and the root holds no
  // marker (is_marked()): it does not look like a cache archfit made.
  PruneResult prune(std::chrono::seconds older_than);
  // Removes every file list() shows, then the layout's directories left
  // empty; other files are left alone. The same refusal as prune.
  PruneResult clear();

  // The marker file in the root, written with the first entry.
  static constexpr std::string_view kMarkerName = "CACHEDIR.TAG";
  // Whether the root holds the marker archfit writes (a regular file, not a
  // link, with the tag's signature and archfit's name).
  bool is_marked() const;

  TimePoint now() const { return clock_(); }

 private:
  void ensure_marker();

  std::filesystem::path root_;
  Clock clock_;
  // Set once the marker is known to be there; shared by copies, read by the
  // resolver's threads.
  std::shared_ptr<std::atomic<bool>> marked_ = std::make_shared<std::atomic<bool>>(false);
};

}  // namespace archfit::cache
