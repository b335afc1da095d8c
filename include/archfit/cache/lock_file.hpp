// archfit.lock: the platforms of images, committed next to the manifests so
// that a run needs no network. JSON, written deterministically:
//   {"version": 1, "images": {"<canonical ref>": {"digest": "sha256:...",
//                                                "platforms": ["linux/amd64"]}}}
#pragma once

#include <archfit/image/platform_set.hpp>
#include <archfit/image/reference.hpp>

#include <filesystem>
#include <map>
#include <optional>
#include <string>

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

  // The entry for a reference, looked up by its canonical form.
  const LockEntry* find(const image::Reference& ref) const;
  void set(const image::Reference& ref, LockEntry entry);
  std::size_t size() const { return entries_.size(); }
  const std::map<std::string, LockEntry>& entries() const { return entries_; }

  // Deterministic text: keys sorted, 2-space indent, final newline.
  std::string serialize() const;

 private:
  std::map<std::string, LockEntry> entries_;  // by canonical reference
};

}  // namespace archfit::cache
