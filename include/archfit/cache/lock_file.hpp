// archfit.lock: the platforms of images, committed next to the manifests so
// that a run needs no network. JSON, written deterministically:
//   {"version": 1, "images": {"<canonical ref>": {"digest": "sha256:...",
//                                                "platforms": ["linux/amd64"]}}}
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <archfit/image/platform_set.hpp>
#include <archfit/image/reference.hpp>

namespace archfit::cache {

struct LockEntry {
  std::string digest;  // optional in hand-written files
  image::PlatformSet platforms;

  friend bool operator==(const LockEntry&, const LockEntry&) = default;
};

class LockFile {
 public:
  LockFile() = default;

  // Parses lock file text. `name` is used in messages. Throws Error(Config)
  // with file:line:col for invalid JSON, an unknown version, keys that are not
  // canonical references (the message names the canonical form to use) and
  // invalid platforms.
  static LockFile parse(std::string_view text, const std::string& name);
  static LockFile load(const std::filesystem::path& path);

  // The entry for a reference, looked up by its canonical form (or, for a
  // reference with a digest, the entry of that digest, or of its tag when
  // the tag's entry has that digest).
  std::optional<LockEntry> find(const image::Reference& ref) const;
  // The key of the entry find() gives; nullopt when there is none.
  std::optional<std::string> key_of(const image::Reference& ref) const;
  void set(const image::Reference& ref, LockEntry entry);
  // Takes out the entry of this canonical reference; false when there is none.
  bool remove(const std::string& canonical);
  // Takes out every entry whose key is not in `keep`, in one pass (each in
  // constant time), handing each to `removed` first.
  void remove_all_but(const std::set<std::string>& keep,
                      const std::function<void(const std::string&, LockEntry)>& removed);
  std::size_t size() const { return entries_.size(); }
  // Every entry's canonical reference, sorted.
  std::vector<std::string> keys() const;
  // The entry of a canonical reference, as find() gives it.
  std::optional<LockEntry> find(const std::string& canonical) const;

  // Deterministic text: keys sorted, 2-space indent, final newline.
  std::string serialize() const;
  // The same, handed to `put` a piece at a time: a large lock is never held
  // as text.
  void write(const std::function<void(std::string_view)>& put) const;

  // A lock file to fill in by hand: these canonical references, each with
  // an empty "platforms" list (which the lock refuses until it is filled).
  static std::string skeleton(const std::vector<std::string>& canonical_refs);

 private:
  // An entry as kept: its platforms are one of the few distinct sets a lock
  // file holds, so that a lock of many images costs little more than its keys.
  struct Stored {
    std::uint32_t digest = 0;     // index into digests_; 0 for none
    std::uint32_t platforms = 0;  // index into sets_
  };
  std::uint32_t intern(image::PlatformSet set);
  std::uint32_t add_digest(std::string digest);
  LockEntry entry_of(const Stored& stored) const;

  std::map<std::string, Stored> entries_;  // by canonical reference
  std::vector<image::PlatformSet> sets_;
  std::vector<std::string> digests_;                // [0] is "" once there is any
  std::map<std::string, std::uint32_t> set_index_;  // by PlatformSet::str()
};

}  // namespace archfit::cache
