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

// The whole file, and what it was when read when `identity` is given. Throws
// Error(Input) "cannot read <path>: <reason>".
std::string read_file(const std::filesystem::path& path, FileIdentity* identity = nullptr);

// Everything on standard input.
std::string read_stdin();

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
