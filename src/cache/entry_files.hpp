// The file operations under the cache store: small reads that never throw, and
// writes that go to a unique temporary file renamed over the entry, so that
// readers in other processes see a whole old entry or a whole new one.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace archfit::cache {

// Entries are a few hundred bytes; anything bigger is not ours.
inline constexpr std::size_t kMaxEntryBytes = 64 * 1024;

// The content of a regular file of at most max_bytes; nullopt for anything
// else (missing, unreadable, a directory, too big).
std::optional<std::string> read_small_file(const std::filesystem::path& path,
                                           std::size_t max_bytes = kMaxEntryBytes);
// The same for the file `name` in the directory open as `dir_fd`; a link is
// never followed.
std::optional<std::string> read_small_file_at(int dir_fd, const char* name,
                                              std::size_t max_bytes = kMaxEntryBytes);

// Writes `data` to `path`: parent directories are created as needed (another
// process creating them at the same time is fine), the bytes go to a file
// named temp_prefix() + "<pid>-<random>" beside it, which is renamed over
// `path`. On failure returns false with "cannot write <path>: <reason>" in
// *why and leaves no temporary file behind.
bool try_replace_file(const std::filesystem::path& path, std::string_view data, std::string* why);

// Temporary files start with this; a leftover one (a writer that was killed)
// is garbage for prune.
inline constexpr std::string_view kTempPrefix = ".tmp-";

}  // namespace archfit::cache
