#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <archfit/base/error.hpp>
#include <archfit/base/file.hpp>

namespace archfit {

namespace {
[[noreturn]] void fail_read(const std::filesystem::path& path, int err) {
  fail(ErrorKind::Input, "cannot read " + path.string() + ": " + std::strerror(err));
}

std::string read_fd(int fd, const std::filesystem::path& name, std::size_t size_hint) {
  std::string data;
  data.resize(size_hint > 0 ? size_hint + 1 : 65536);
  std::size_t used = 0;
  for (;;) {
    if (used == data.size()) data.resize(data.size() * 2);
    ssize_t n = ::read(fd, data.data() + used, data.size() - used);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail_read(name, errno);
    }
    if (n == 0) break;
    used += static_cast<std::size_t>(n);
  }
  data.resize(used);
  return data;
}
}  // namespace

std::string read_file(const std::filesystem::path& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail_read(path, errno);
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    int err = errno;
    ::close(fd);
    fail_read(path, err);
  }
  if (S_ISDIR(st.st_mode)) {
    ::close(fd);
    fail_read(path, EISDIR);
  }
  try {
    std::string data = read_fd(fd, path, static_cast<std::size_t>(st.st_size));
    ::close(fd);
    return data;
  } catch (...) {
    ::close(fd);
    throw;
  }
}

std::string read_stdin() {
  return read_fd(STDIN_FILENO, "<stdin>", 0);
}

}  // namespace archfit
