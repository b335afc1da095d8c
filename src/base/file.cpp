#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <iostream>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <vector>

#include <archfit/base/error.hpp>
#include <archfit/base/file.hpp>
#include <archfit/base/large_buffer.hpp>
#include <archfit/base/unique_fd.hpp>

#include "base/gathered_write.hpp"

namespace archfit {

FileIdentity identity_from(const struct stat& st) {
  FileIdentity id;
  id.device = st.st_dev;
  id.inode = st.st_ino;
  id.size = st.st_size;
  id.mtime_ns = static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
  id.links = st.st_nlink;
  id.owner = st.st_uid;
  id.group = st.st_gid;
  return id;
}

namespace {
[[noreturn]] void fail_read(const std::filesystem::path& path, const std::string& why) {
  fail(ErrorKind::Input, "cannot read " + path.string() + ": " + why);
}

[[noreturn]] void fail_read(const std::filesystem::path& path, int err) {
  fail_read(path, std::strerror(err));
}

std::string size_text(std::uint64_t bytes) {
  if (bytes % (1024 * kMiB) == 0) return std::to_string(bytes / (1024 * kMiB)) + " GiB";
  if (bytes % kMiB == 0) return std::to_string(bytes / kMiB) + " MiB";
  return std::to_string(bytes) + " bytes";
}

[[noreturn]] void fail_too_big(const std::filesystem::path& name, const ReadLimit& limit) {
  fail_read(name, "it is larger than " + size_text(limit.max_bytes) +
                      ", the most archfit reads of " + std::string(limit.what) +
                      "; check what it names, or split it");
}

const char* kind_of(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISDIR(mode)) return "a directory";
  return "not a regular file";
}

// A buffer of many MiB is first written by the kernel's page faults: asked
// for huge pages (base/large_buffer), reading a large input from page cache
// is two to three times faster.
void prefer_huge_pages(std::string& buffer) {
  constexpr std::size_t kWorthIt = std::size_t{8} << 20;
  if (buffer.capacity() >= kWorthIt) archfit::prefer_huge_pages(buffer.data(), buffer.capacity());
}

// Reads what `fd` holds into one string, in pieces of at most 16 MiB that
// the check sees as they arrive, up to the cap.
std::string read_fd(int fd, const std::filesystem::path& name, const ReadLimit& limit,
                    const struct stat& st) {
  constexpr std::size_t kPiece = std::size_t{16} << 20;
  constexpr std::size_t kLeast = std::size_t{1} << 16;
  std::string data;
  // A regular file's size is known: one allocation (one byte more, to see a
  // file that grew), and reads of just that, so that a run over many small
  // files holds each file's bytes and not a buffer each. Anything else grows
  // as it comes.
  std::size_t least = kLeast;
  if (S_ISREG(st.st_mode) && st.st_size > 0) {
    std::uint64_t size = static_cast<std::uint64_t>(st.st_size);
    if (size > limit.max_bytes) fail_too_big(name, limit);
    data.reserve(static_cast<std::size_t>(size) + 1);
    prefer_huge_pages(data);
    least = 1;
  }
  std::size_t used = 0;
  for (;;) {
    std::size_t want =
        std::min<std::size_t>(kPiece, std::max<std::size_t>(least, data.capacity() - used));
    // A file that grew past its size reads on as a stream does.
    least = kLeast;
    if (used + want > limit.max_bytes + 1)
      want = static_cast<std::size_t>(limit.max_bytes + 1 - used);
    if (data.size() < used + want) {
      if (data.capacity() < used + want) {
        data.reserve(std::max(used + want, data.capacity() * 2));
        prefer_huge_pages(data);
      }
      data.resize(used + want);
    }
    std::size_t from = used;
    while (used < from + want) {
      ssize_t n = ::read(fd, data.data() + used, from + want - used);
      if (n < 0) {
        if (errno == EINTR) continue;
        fail_read(name, errno);
      }
      if (n == 0) break;
      used += static_cast<std::size_t>(n);
    }
    bool end = used < from + want;
    if (used > limit.max_bytes) fail_too_big(name, limit);
    if (limit.check && used > from) limit.check(std::string_view(data.data(), used), from);
    if (end) break;
  }
  data.resize(used);
  return data;
}
}  // namespace

std::string read_file(const std::filesystem::path& path, const ReadLimit& limit,
                      FileIdentity* identity) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below.
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  if (!fd.valid()) fail_read(path, errno);
  return read_opened(fd.get(), path, limit, identity);
}

std::string read_opened(int fd, const std::filesystem::path& path, const ReadLimit& limit,
                        FileIdentity* identity) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) fail_read(path, errno);
  if (identity != nullptr) *identity = identity_from(st);
  if (S_ISDIR(st.st_mode)) fail_read(path, EISDIR);
  // /dev/null is the usual way to say "no file" (--config /dev/null): empty.
  if (S_ISCHR(st.st_mode) && st.st_rdev == makedev(1, 3)) return {};
  if (!S_ISREG(st.st_mode)) {
    fail_read(path, std::string("it is ") + kind_of(st.st_mode) +
                        ", not a regular file; archfit reads files, or a stream on standard "
                        "input ('-')");
  }
  return read_fd(fd, path, limit, st);
}

std::string read_stdin(const ReadLimit& limit) {
  struct stat st {};
  if (::fstat(STDIN_FILENO, &st) != 0) fail_read("<stdin>", errno);
  if (S_ISDIR(st.st_mode)) fail_read("<stdin>", EISDIR);
  return read_fd(STDIN_FILENO, "<stdin>", limit, st);
}

Content content_of(const std::vector<std::string_view>& parts) {
  return [&parts](const std::function<void(std::string_view)>& put) {
    for (std::string_view part : parts)
      put(part);
  };
}

namespace {
void write_all(std::string_view part) {
  while (!part.empty()) {
    ssize_t n = ::write(STDOUT_FILENO, part.data(), part.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      fail(ErrorKind::Input, std::string("cannot write <stdout>: ") + std::strerror(errno));
    }
    part.remove_prefix(static_cast<std::size_t>(n));
  }
}
}  // namespace

void write_stdout(const Content& content) {
  std::cout.flush();
  // Small pieces (an indentation, a line) are gathered, large ones written
  // as they are: one system call per 64 KiB at most, and no copy of a large
  // piece.
  constexpr std::size_t kGather = 64 * 1024;
  std::string gathered;
  gathered.reserve(kGather);
  content([&gathered](std::string_view part) {
    if (gathered.size() + part.size() <= kGather) {
      gathered.append(part);
      return;
    }
    write_all(gathered);
    gathered.clear();
    if (part.size() < kGather) {
      gathered.append(part);
    } else {
      write_all(part);
    }
  });
  write_all(gathered);
}

void write_stdout(const std::vector<std::string_view>& parts) {
  std::cout.flush();
  // Every part stays where it is until the end: written from there, many
  // parts to a system call, without gathering them into a buffer first.
  if (int err = detail::write_gathered(STDOUT_FILENO, parts)) {
    fail(ErrorKind::Input, std::string("cannot write <stdout>: ") + std::strerror(err));
  }
}

}  // namespace archfit
