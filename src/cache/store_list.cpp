// What is in the cache, file by file, and taking it out: list, prune, clear.
// Listing reads every entry, so that prune can go by the time inside it
// rather than by file times, which copying and backups change.
#include <algorithm>
#include <cerrno>
#include <sys/stat.h>
#include <tuple>
#include <unistd.h>

#include <archfit/cache/store.hpp>

#include "cache/entry_files.hpp"
#include "cache/entry_json.hpp"
#include "cache/sha256.hpp"

namespace fs = std::filesystem;

namespace archfit::cache {

namespace {

// A temporary file younger than this may belong to a writer at work.
constexpr std::chrono::seconds kTempGrace{60};

bool is_hex(std::string_view s, std::size_t size) {
  return s.size() == size && std::all_of(s.begin(), s.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

// "<64 hex>.json" -> the hex; "" for any other name.
std::string_view entry_hex(std::string_view name) {
  constexpr std::string_view kSuffix = ".json";
  if (name.size() != 64 + kSuffix.size() || name.substr(64) != kSuffix) return {};
  std::string_view hex = name.substr(0, 64);
  return is_hex(hex, 64) ? hex : std::string_view();
}

TimePoint modification_time(const struct stat& st) {
  auto since_epoch =
      std::chrono::seconds(st.st_mtim.tv_sec) + std::chrono::nanoseconds(st.st_mtim.tv_nsec);
  return TimePoint(std::chrono::duration_cast<TimePoint::duration>(since_epoch));
}

// Fills kind, key, digest and platforms from the file when it is a valid
// entry at the place its key says; leaves it Invalid otherwise.
void classify(const fs::path& relative, ListedEntry& out) {
  std::vector<std::string> parts;
  for (const fs::path& p : relative)
    parts.push_back(p.string());
  if (parts.size() == 4 && parts[0] == "digests" && parts[1] == "sha256") {
    std::string_view hex = entry_hex(parts[3]);
    if (hex.empty() || hex.substr(0, 2) != parts[2]) return;
    auto text = read_small_file(out.path);
    if (!text) return;
    DecodedEntry decoded = decode_entry(*text);
    if (!decoded.digest || decoded.digest->digest != "sha256:" + std::string(hex)) return;
    out.kind = ListedEntry::Kind::Digest;
    out.key = decoded.digest->digest;
    out.digest = decoded.digest->digest;
    out.platforms = decoded.digest->platforms;
    out.time = decoded.digest->written;
  } else if (parts.size() == 2 && parts[0] == "tags") {
    std::string_view hex = entry_hex(parts[1]);
    if (hex.empty()) return;
    auto text = read_small_file(out.path);
    if (!text) return;
    DecodedEntry decoded = decode_entry(*text);
    if (!decoded.tag || sha256_hex(decoded.tag->reference) != hex) return;
    auto ref = image::Reference::try_parse(decoded.tag->reference);
    if (!ref || ref->has_digest() || ref->canonical() != decoded.tag->reference) return;
    out.kind = ListedEntry::Kind::Tag;
    out.key = decoded.tag->reference;
    out.digest = decoded.tag->digest;
    out.time = decoded.tag->fetched;
  }
}

struct Walk {
  std::vector<ListedEntry> files;
  std::vector<fs::path> directories;  // below the version directory, parents first
};

Walk walk(const fs::path& version_dir) {
  Walk out;
  std::error_code ec;
  fs::recursive_directory_iterator it(version_dir, fs::directory_options::skip_permission_denied,
                                      ec);
  for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    const fs::path& path = it->path();
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) continue;  // removed meanwhile
    if (S_ISDIR(st.st_mode)) {
      out.directories.push_back(path);
      continue;
    }
    ListedEntry entry;
    entry.path = path;
    entry.bytes = static_cast<std::uintmax_t>(st.st_size);
    entry.time = modification_time(st);
    if (S_ISREG(st.st_mode)) {
      try {
        classify(path.lexically_relative(version_dir), entry);
      } catch (const std::exception&) {
        entry = ListedEntry{ListedEntry::Kind::Invalid,
                            path,
                            {},
                            {},
                            {},
                            modification_time(st),
                            static_cast<std::uintmax_t>(st.st_size)};
      }
    }
    out.files.push_back(std::move(entry));
  }
  std::sort(out.files.begin(), out.files.end(), [](const ListedEntry& a, const ListedEntry& b) {
    return std::tie(a.kind, a.key, a.path) < std::tie(b.kind, b.key, b.path);
  });
  return out;
}

// Removes one file; true when it is gone because of us.
bool remove_file(const ListedEntry& entry, PruneResult& result) {
  if (::unlink(entry.path.c_str()) != 0) {
    if (errno != ENOENT) ++result.kept;  // gone already: another prune was faster
    return false;
  }
  ++result.removed;
  result.bytes_freed += entry.bytes;
  result.entries.push_back(entry);
  return true;
}

// Empty directories left by removals, deepest first; a directory a writer
// fills meanwhile is not empty and stays (and writers make theirs again).
void remove_empty_directories(std::vector<fs::path> directories) {
  std::sort(directories.begin(), directories.end(),
            [](const fs::path& a, const fs::path& b) { return a.native() > b.native(); });
  for (const fs::path& dir : directories)
    ::rmdir(dir.c_str());
}

}  // namespace

std::vector<ListedEntry> Store::list() const {
  return walk(version_dir()).files;
}

PruneResult Store::prune(std::chrono::seconds older_than) {
  PruneResult result;
  const TimePoint now = clock_();
  Walk found = walk(version_dir());
  for (const ListedEntry& entry : found.files) {
    bool old = entry.kind == ListedEntry::Kind::Invalid ? now - entry.time > kTempGrace
                                                        : now - entry.time > older_than;
    if (old) {
      remove_file(entry, result);
    } else {
      ++result.kept;
    }
  }
  remove_empty_directories(std::move(found.directories));
  return result;
}

PruneResult Store::clear() {
  PruneResult result;
  Walk found = walk(version_dir());
  for (const ListedEntry& entry : found.files)
    remove_file(entry, result);
  // Whatever the walk could not see (an unreadable directory) goes too.
  std::error_code ec;
  fs::remove_all(version_dir(), ec);
  return result;
}

}  // namespace archfit::cache
