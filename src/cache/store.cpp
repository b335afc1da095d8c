// Entries by key: where each lives, reading it back (every failure a miss) and
// writing it through replace_file. Listing and pruning are in store_list.cpp.
#include <archfit/cache/store.hpp>

#include "cache/entry_files.hpp"
#include "cache/entry_json.hpp"
#include "cache/sha256.hpp"

namespace archfit::cache {

namespace {

constexpr std::size_t kMaxMediaTypeBytes = 255;

// The Cache Directory Tagging convention's signature (backup tools skip a
// directory holding it), then archfit's name, which is what prune checks.
constexpr std::string_view kMarkerSignature = "Signature: 8a477f597d28d172789f06886806bc55\n";
constexpr std::string_view kMarkerOwner =
    "# This file is a cache directory tag created by archfit.\n";
constexpr std::string_view kMarkerRest =
    "# archfit cache prune and clear remove files only from a directory holding it.\n"
    "# For information about cache directory tags, see https://bford.info/cachedir/\n";

void set_why(std::string* why, std::string text) {
  if (why) *why = std::move(text);
}

}  // namespace

Clock system_clock() {
  return [] { return std::chrono::system_clock::now(); };
}

Store::Store(std::filesystem::path root, Clock clock)
    : root_(std::move(root)), clock_(std::move(clock)) {}

std::filesystem::path Store::version_dir() const {
  return root_ / "v1";
}

std::filesystem::path Store::digest_path(std::string_view digest) const {
  std::string_view hex = digest.substr(digest.find(':') + 1);
  return version_dir() / "digests" / "sha256" / std::string(hex.substr(0, 2)) /
         (std::string(hex) + ".json");
}

std::filesystem::path Store::tag_path(const image::Reference& ref) const {
  return version_dir() / "tags" / (sha256_hex(ref.canonical()) + ".json");
}

bool Store::is_marked() const {
  auto text = read_small_file(root_ / kMarkerName, 4096);
  return text && text->starts_with(kMarkerSignature) &&
         text->find(kMarkerOwner) != std::string::npos;
}

// Best effort, like every write here: a cache without its marker still
// works, only prune and clear refuse it. Written whole or not at all (a
// temporary file renamed into place), so that a process killed meanwhile
// leaves no half marker; processes writing it at once write the same bytes.
void Store::ensure_marker() {
  if (marked_->load(std::memory_order_acquire)) return;
  if (!is_marked()) {
    std::string text =
        std::string(kMarkerSignature) + std::string(kMarkerOwner) + std::string(kMarkerRest);
    if (!try_replace_file(root_ / kMarkerName, text, nullptr)) return;
  }
  marked_->store(true, std::memory_order_release);
}

bool Store::has_digests() const {
  std::error_code ec;
  // Entries live one level down, in directories named by two hex digits.
  for (std::filesystem::directory_iterator shards(version_dir() / "digests" / "sha256", ec), end;
       !ec && shards != end; shards.increment(ec)) {
    std::filesystem::directory_iterator entries(shards->path(), ec);
    if (!ec && entries != std::filesystem::directory_iterator()) return true;
  }
  return false;
}

std::optional<DigestEntry> Store::get_digest(std::string_view digest) const {
  if (!is_sha256_digest(digest)) return std::nullopt;
  try {
    auto text = read_small_file(digest_path(digest));
    if (!text) return std::nullopt;
    DecodedEntry decoded = decode_entry(*text);
    // A file whose content names another digest was copied or renamed by hand.
    if (!decoded.digest || decoded.digest->digest != digest) return std::nullopt;
    return std::move(decoded.digest);
  } catch (const std::exception&) {  // out of memory; the cache is only an optimization
    return std::nullopt;
  }
}

std::optional<TagEntry> Store::get_tag(const image::Reference& ref) const {
  if (ref.has_digest()) return std::nullopt;
  try {
    auto text = read_small_file(tag_path(ref));
    if (!text) return std::nullopt;
    DecodedEntry decoded = decode_entry(*text);
    // Another reference under this name is a hash collision or a foreign file.
    if (!decoded.tag || decoded.tag->reference != ref.canonical()) return std::nullopt;
    return std::move(decoded.tag);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

bool Store::try_put_digest(DigestEntry entry, std::string* why) {
  if (!is_sha256_digest(entry.digest)) {
    set_why(why, "not caching invalid digest " + entry.digest +
                     ": the cache keeps sha256: digests of 64 lowercase hex digits");
    return false;
  }
  if (entry.platforms.empty()) {
    set_why(why, "not caching " + entry.digest + ": it has no platforms");
    return false;
  }
  if (entry.media_type.size() > kMaxMediaTypeBytes) {
    set_why(why, "not caching " + entry.digest + ": its media type is longer than " +
                     std::to_string(kMaxMediaTypeBytes) + " bytes");
    return false;
  }
  try {
    entry.written = to_stored_time(clock_());
    if (!try_replace_file(digest_path(entry.digest), encode_digest_entry(entry), why)) return false;
    ensure_marker();
    return true;
  } catch (const std::exception& e) {
    set_why(why, "cannot cache " + entry.digest + ": " + e.what());
    return false;
  }
}

bool Store::try_put_tag(const image::Reference& ref, std::string_view digest, std::string* why) {
  if (ref.has_digest()) {
    set_why(why, "not caching " + ref.canonical() +
                     " by tag: a reference with a digest always means that digest");
    return false;
  }
  if (!is_sha256_digest(digest)) {
    set_why(why, "not caching " + ref.canonical() + " -> " + std::string(digest) +
                     ": the cache keeps sha256: digests of 64 lowercase hex digits");
    return false;
  }
  try {
    TagEntry entry{ref.canonical(), std::string(digest), to_stored_time(clock_())};
    if (!try_replace_file(tag_path(ref), encode_tag_entry(entry), why)) return false;
    ensure_marker();
    return true;
  } catch (const std::exception& e) {
    set_why(why, "cannot cache " + ref.canonical() + ": " + e.what());
    return false;
  }
}

// Symmetric on purpose: an entry from the future (a clock set back, or a
// cache shared by machines whose clocks disagree) is trusted as long as it is
// less than ttl ahead; further ahead its time cannot be believed at all.
bool Store::fresh(const TagEntry& entry, std::chrono::seconds ttl) const {
  if (ttl <= std::chrono::seconds::zero()) return false;
  auto age = clock_() - entry.fetched;
  return age < ttl && age > -ttl;
}

}  // namespace archfit::cache
