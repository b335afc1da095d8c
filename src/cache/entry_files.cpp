#include "cache/entry_files.hpp"

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <random>
#include <sys/stat.h>
#include <unistd.h>

#include <archfit/base/unique_fd.hpp>

namespace archfit::cache {

namespace {

using Fd = UniqueFd;

// mkdir -p. EEXIST from a directory another process made meanwhile is fine;
// a file where a directory should be is not.
int make_directories(const std::filesystem::path& dir) {
  if (dir.empty()) return 0;
  struct stat st {};
  if (::stat(dir.c_str(), &st) == 0) return S_ISDIR(st.st_mode) ? 0 : ENOTDIR;
  if (errno != ENOENT) return errno;
  std::filesystem::path parent = dir.parent_path();
  if (parent != dir) {
    if (int err = make_directories(parent)) return err;
  }
  if (::mkdir(dir.c_str(), 0755) == 0) return 0;
  int err = errno;
  if (err == EEXIST && ::stat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) return 0;
  return err;
}

// "<pid>-<16 hex>": the pid keeps processes apart (forked children share the
// parent's random state), the counter threads of one process, and the random
// part a pid reused after a crash. O_EXCL catches whatever is left.
std::string temp_suffix() {
  static std::atomic<std::uint64_t> counter{0};
  thread_local std::mt19937_64 random{std::random_device{}()};
  std::uint64_t bits = random() ^ (counter.fetch_add(1) * 0x9e3779b97f4a7c15ULL);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%ld-%016llx", static_cast<long>(::getpid()),
                static_cast<unsigned long long>(bits));
  return buf;
}

bool write_all(int fd, std::string_view data) {
  std::size_t written = 0;
  while (written < data.size()) {
    ssize_t n = ::write(fd, data.data() + written, data.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    written += static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

std::optional<std::string> read_small_file(const std::filesystem::path& path,
                                           std::size_t max_bytes) {
  return read_small_file_at(AT_FDCWD, path.c_str(), max_bytes);
}

std::optional<std::string> read_small_file_at(int dir_fd, const char* name, std::size_t max_bytes) {
  Fd fd(::openat(dir_fd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK));
  if (fd.get() < 0) return std::nullopt;
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  if (st.st_size < 0 || static_cast<std::uint64_t>(st.st_size) > max_bytes) return std::nullopt;
  // Read one byte more than the size said, to notice a file that grew (it is
  // then not an entry written by the rename protocol).
  std::string out(static_cast<std::size_t>(st.st_size) + 1, '\0');
  std::size_t got = 0;
  while (got < out.size()) {
    ssize_t n = ::read(fd.get(), out.data() + got, out.size() - got);
    if (n < 0) {
      if (errno == EINTR) continue;
      return std::nullopt;
    }
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  if (got > max_bytes) return std::nullopt;
  out.resize(got);
  return out;
}

bool try_replace_file(const std::filesystem::path& path, std::string_view data, std::string* why) {
  auto give_up = [&](int err) {
    if (why) *why = "cannot write " + path.string() + ": " + std::strerror(err);
    return false;
  };
  const std::filesystem::path dir = path.parent_path();
  std::string temp;
  int fd = -1;
  // A concurrent prune may remove a directory it found empty between our
  // mkdir and open: make it again. EEXIST means an unlucky name: pick another.
  for (int attempt = 0; attempt < 4 && fd < 0; ++attempt) {
    if (int err = make_directories(dir)) return give_up(err);
    temp = (dir / (std::string(kTempPrefix) + temp_suffix())).string();
    fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0 && errno != ENOENT && errno != EEXIST) return give_up(errno);
  }
  if (fd < 0) return give_up(errno);
  Fd file(fd);
  auto remove_temp_and_give_up = [&](int err) {
    ::unlink(temp.c_str());
    return give_up(err);
  };
  if (!write_all(file.get(), data)) return remove_temp_and_give_up(errno);
  if (file.close() != 0) return remove_temp_and_give_up(errno);
  if (::rename(temp.c_str(), path.c_str()) != 0) return remove_temp_and_give_up(errno);
  return true;
}

}  // namespace archfit::cache
