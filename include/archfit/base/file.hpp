// Reading whole files, writing standard output. Errors name the file and the
// system's reason.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

struct stat;

namespace archfit {

// Which file a path held, and in which state: enough to tell, before writing
// it, that another program replaced or changed it since it was read.
struct FileIdentity {
  std::uint64_t device = 0;
  std::uint64_t inode = 0;
  std::int64_t size = 0;
  std::int64_t mtime_ns = 0;
  std::uint64_t links = 0;
  std::uint32_t owner = 0;
  std::uint32_t group = 0;

  // The same file, unchanged as far as the file system tells (links, owner
  // and group aside).
  bool same_content(const FileIdentity& other) const {
    return device == other.device && inode == other.inode && size == other.size &&
           mtime_ns == other.mtime_ns;
  }
};

// The identity `stat` tells.
FileIdentity identity_from(const struct stat& st);

// How much a read takes, and what it checks on the way. Every read is capped:
// a path naming /dev/zero, or a stream that never ends, must not take the
// machine's memory.
struct ReadLimit {
  std::uint64_t max_bytes = 0;
  // What is read, for the message when the cap is hit: "a manifest stream".
  std::string_view what;
  // Sees each piece as it arrives (`all` is everything read so far, the new
  // piece starts at `from`) and may throw: a stream that cannot be YAML fails
  // at its first bad byte instead of being read to the end.
  std::function<void(std::string_view all, std::size_t from)> check = {};
};

inline constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;
// The caps archfit reads with.
inline constexpr std::uint64_t kMaxManifestBytes = 1024 * kMiB;  // a file or stream of manifests
inline constexpr std::uint64_t kMaxLockBytes = 64 * kMiB;        // a lock file
inline constexpr std::uint64_t kMaxSettingsBytes = 4 * kMiB;     // configuration, credentials

// The whole file, and what it was when read when `identity` is given. Only a
// regular file is read: a FIFO, a device or a socket is refused at once
// (opening never blocks); /dev/null reads as an empty file. Throws Error(Input) "cannot read
// <path>: <reason>".
std::string read_file(const std::filesystem::path& path, const ReadLimit& limit,
                      FileIdentity* identity = nullptr);

// The same from a file opened already (its name is for messages).
std::string read_opened(int fd, const std::filesystem::path& path, const ReadLimit& limit,
                        FileIdentity* identity = nullptr);

// Everything on standard input, whatever it is (a pipe, a file, a device),
// up to the cap.
std::string read_stdin(const ReadLimit& limit);

// Content made in pieces: a function that hands each piece, in order, to
// `put`. Large content (a report held in a temporary file) goes from its
// source to its destination without being held whole in memory.
using Content = std::function<void(const std::function<void(std::string_view)>& put)>;

// The parts, in order, as Content (they must outlive it).
Content content_of(const std::vector<std::string_view>& parts);

// The parts, in order, straight to standard output (after what std::cout
// holds). Throws Error(Input) "cannot write <stdout>: <reason>".
void write_stdout(const std::vector<std::string_view>& parts);
void write_stdout(const Content& content);

}  // namespace archfit
