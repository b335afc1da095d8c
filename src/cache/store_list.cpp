// What is in the cache, file by file, and taking it out: list, prune, clear.
// Listing reads every entry, so that prune can go by the time inside it
// rather than by file times, which copying and backups change. Only the
// layout's directories are walked, each opened without following a link, and
// only files named as entries or temporary files are ever listed or removed.
#include <algorithm>
#include <cerrno>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <tuple>
#include <unistd.h>

#include <archfit/base/error.hpp>
#include <archfit/base/unique_fd.hpp>
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

// A file's time can be anything touch(1) was told: clamped to the range an
// entry's own time has (from 1970 to the clock's last second), so that an
// age computed from it never wraps.
TimePoint modification_time(const struct stat& st) {
  constexpr std::int64_t kLatest =
      std::chrono::duration_cast<std::chrono::seconds>(TimePoint::duration::max()).count() - 1;
  auto seconds = std::clamp<std::int64_t>(st.st_mtim.tv_sec, 0, kLatest);
  auto since_epoch = std::chrono::seconds(seconds) + std::chrono::nanoseconds(st.st_mtim.tv_nsec);
  return TimePoint(std::chrono::duration_cast<TimePoint::duration>(since_epoch));
}

// A leftover of try_replace_file: kTempPrefix + "<pid>-<16 hex>".
bool is_temp_name(std::string_view name) {
  if (!name.starts_with(kTempPrefix)) return false;
  name.remove_prefix(kTempPrefix.size());
  std::size_t dash = name.find('-');
  if (dash == 0 || dash == std::string_view::npos) return false;
  bool digits = std::all_of(name.begin(), name.begin() + static_cast<std::ptrdiff_t>(dash),
                            [](char c) { return c >= '0' && c <= '9'; });
  return digits && is_hex(name.substr(dash + 1), 16);
}

// A directory of the layout, open without following a link. Files are
// read and removed relative to it, so that a directory swapped for a link
// while prune runs is not followed either.
struct Directory {
  UniqueFd fd;
  fs::path path;
  std::size_t parent = 0;  // index in Walk::directories; the root is its own parent
  std::string name;
};

struct Found {
  ListedEntry entry;
  std::size_t directory = 0;
  std::string name;
};

struct Walk {
  std::vector<Directory> directories;  // parents before children; [0] is the root
  std::vector<Found> files;
  bool has_version_dir = false;
};

// Opens `name` inside directories[parent]; nothing when it is missing, not a
// directory, or a link.
std::optional<std::size_t> open_directory(Walk& w, std::size_t parent, const std::string& name) {
  int fd = ::openat(w.directories[parent].fd.get(), name.c_str(),
                    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  w.directories.push_back({UniqueFd(fd), w.directories[parent].path / name, parent, name});
  return w.directories.size() - 1;
}

std::vector<std::string> names_in(int fd) {
  std::vector<std::string> names;
  int copy = ::fcntl(fd, F_DUPFD_CLOEXEC, 0);
  if (copy < 0) return names;
  DIR* dir = ::fdopendir(copy);
  if (dir == nullptr) {
    ::close(copy);
    return names;
  }
  while (const dirent* e = ::readdir(dir)) {
    std::string_view name = e->d_name;
    if (name != "." && name != "..") names.emplace_back(name);
  }
  ::closedir(dir);
  return names;
}

// Fills kind, key, digest and platforms when the file is a valid entry at the
// place its name says; leaves it Invalid otherwise. `shard` is the two hex
// digits of a digest directory, or "" in tags/.
void classify(int dir_fd, const std::string& name, const std::string& shard, ListedEntry& out) {
  std::string_view hex = entry_hex(name);
  if (hex.empty()) return;
  auto text = read_small_file_at(dir_fd, name.c_str());
  if (!text) return;
  DecodedEntry decoded = decode_entry(*text);
  if (!shard.empty()) {
    if (hex.substr(0, 2) != shard) return;
    if (!decoded.digest || decoded.digest->digest != "sha256:" + std::string(hex)) return;
    out.kind = ListedEntry::Kind::Digest;
    out.key = decoded.digest->digest;
    out.digest = decoded.digest->digest;
    out.platforms = decoded.digest->platforms;
    out.time = decoded.digest->written;
    return;
  }
  if (!decoded.tag || sha256_hex(decoded.tag->reference) != hex) return;
  auto ref = image::Reference::try_parse(decoded.tag->reference);
  if (!ref || ref->has_digest() || ref->canonical() != decoded.tag->reference) return;
  out.kind = ListedEntry::Kind::Tag;
  out.key = decoded.tag->reference;
  out.digest = decoded.tag->digest;
  out.time = decoded.tag->fetched;
}

// The files of one layout directory that are named as entries or temporary
// files and are regular files (a link is never one).
void collect(Walk& w, std::size_t index, const std::string& shard) {
  const int fd = w.directories[index].fd.get();
  for (std::string& name : names_in(fd)) {
    if (entry_hex(name).empty() && !is_temp_name(name)) continue;
    struct stat st {};
    if (::fstatat(fd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode)) {
      continue;
    }
    Found found;
    found.entry.path = w.directories[index].path / name;
    found.entry.bytes = static_cast<std::uintmax_t>(st.st_size);
    found.entry.time = modification_time(st);
    try {
      classify(fd, name, shard, found.entry);
    } catch (const std::exception&) {
      found.entry = ListedEntry{ListedEntry::Kind::Invalid, found.entry.path, {}, {}, {},
                                modification_time(st),      found.entry.bytes};
    }
    found.directory = index;
    found.name = std::move(name);
    w.files.push_back(std::move(found));
  }
}

// v1/digests/sha256/<2 hex>/ and v1/tags/, and nothing else.
Walk walk(const fs::path& root) {
  Walk w;
  int fd = ::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return w;
  w.directories.push_back({UniqueFd(fd), root, 0, ""});
  auto version = open_directory(w, 0, "v1");
  if (!version) return w;
  w.has_version_dir = true;
  if (auto digests = open_directory(w, *version, "digests")) {
    if (auto sha = open_directory(w, *digests, "sha256")) {
      std::vector<std::string> shards = names_in(w.directories[*sha].fd.get());
      std::sort(shards.begin(), shards.end());
      for (const std::string& name : shards) {
        if (!is_hex(name, 2)) continue;
        if (auto shard = open_directory(w, *sha, name)) collect(w, *shard, name);
      }
    }
  }
  if (auto tags = open_directory(w, *version, "tags")) collect(w, *tags, "");
  std::sort(w.files.begin(), w.files.end(), [](const Found& a, const Found& b) {
    return std::tie(a.entry.kind, a.entry.key, a.entry.path) <
           std::tie(b.entry.kind, b.entry.key, b.entry.path);
  });
  return w;
}

// Removes one file; true when it is gone because of us.
bool remove_file(const Walk& w, const Found& found, PruneResult& result) {
  if (::unlinkat(w.directories[found.directory].fd.get(), found.name.c_str(), 0) != 0) {
    if (errno != ENOENT) ++result.kept;  // gone already: another prune was faster
    return false;
  }
  ++result.removed;
  result.bytes_freed += found.entry.bytes;
  result.entries.push_back(found.entry);
  return true;
}

// The layout's directories that removals left empty, deepest first, down to
// `lowest` (1: the version directory itself; 2: below it). A directory a
// writer fills meanwhile is not empty and stays (and writers make theirs
// again).
void remove_empty_directories(const Walk& w, std::size_t lowest) {
  for (std::size_t i = w.directories.size(); i-- > lowest;) {
    const Directory& d = w.directories[i];
    ::unlinkat(w.directories[d.parent].fd.get(), d.name.c_str(), AT_REMOVEDIR);
  }
}

// prune and clear remove only from a cache archfit made.
void require_marker(const Store& store, const Walk& w) {
  if (!w.has_version_dir || store.is_marked()) return;
  fail(ErrorKind::Usage,
       store.root().string() + " does not look like an archfit cache: it has a v1/ directory " +
           "but no " + std::string(Store::kMarkerName) +
           " written by archfit, so archfit removes nothing from it; check --cache-dir and "
           "ARCHFIT_CACHE_DIR, or remove the files yourself");
}

}  // namespace

std::vector<ListedEntry> Store::list() const {
  std::vector<ListedEntry> out;
  for (Found& found : walk(root()).files)
    out.push_back(std::move(found.entry));
  return out;
}

PruneResult Store::prune(std::chrono::seconds older_than) {
  PruneResult result;
  const TimePoint now = clock_();
  Walk found = walk(root());
  require_marker(*this, found);
  for (const Found& file : found.files) {
    const ListedEntry& entry = file.entry;
    bool old = entry.kind == ListedEntry::Kind::Invalid ? now - entry.time > kTempGrace
                                                        : now - entry.time > older_than;
    if (old) {
      remove_file(found, file, result);
    } else {
      ++result.kept;
    }
  }
  remove_empty_directories(found, 2);
  return result;
}

PruneResult Store::clear() {
  PruneResult result;
  Walk found = walk(root());
  require_marker(*this, found);
  for (const Found& file : found.files)
    remove_file(found, file, result);
  remove_empty_directories(found, 1);
  return result;
}

}  // namespace archfit::cache
