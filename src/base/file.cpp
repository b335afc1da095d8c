#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <iostream>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

#include <archfit/base/error.hpp>
#include <archfit/base/file.hpp>

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
[[noreturn]] void fail_read(const std::filesystem::path& path, int err) {
  fail(ErrorKind::Input, "cannot read " + path.string() + ": " + std::strerror(err));
}

std::string read_fd(int fd, const std::filesystem::path& name, FileIdentity* identity) {
  // A regular file is read into a string of its size; anything else (a pipe)
  // in chunks that are joined once, so that no byte is copied or zeroed twice.
  struct stat st {};
  if (::fstat(fd, &st) != 0) fail_read(name, errno);
  if (identity != nullptr) *identity = identity_from(st);
  if (S_ISDIR(st.st_mode)) fail_read(name, EISDIR);
  std::string data;
  std::vector<std::string> chunks;
  std::size_t total = 0;
  std::size_t want = S_ISREG(st.st_mode) && st.st_size > 0
                         ? static_cast<std::size_t>(st.st_size) + 1
                         : std::size_t{1} << 16;
  for (;;) {
    std::string& chunk = chunks.empty() && S_ISREG(st.st_mode) ? data : chunks.emplace_back();
    chunk.resize(want);
    std::size_t used = 0;
    while (used < chunk.size()) {
      ssize_t n = ::read(fd, chunk.data() + used, chunk.size() - used);
      if (n < 0) {
        if (errno == EINTR) continue;
        fail_read(name, errno);
      }
      if (n == 0) break;
      used += static_cast<std::size_t>(n);
    }
    chunk.resize(used);
    total += used;
    if (used < want) break;
    if (&chunk == &data) chunks.push_back(std::move(data));  // the file grew
    want = std::min<std::size_t>(want * 2, std::size_t{1} << 24);
  }
  if (chunks.empty()) return data;
  data.clear();
  data.reserve(total);
  for (std::string& chunk : chunks) {
    data += chunk;
    std::string().swap(chunk);
  }
  return data;
}
}  // namespace

std::string read_file(const std::filesystem::path& path, FileIdentity* identity) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail_read(path, errno);
  try {
    std::string data = read_fd(fd, path, identity);
    ::close(fd);
    return data;
  } catch (...) {
    ::close(fd);
    throw;
  }
}

std::string read_stdin() {
  return read_fd(STDIN_FILENO, "<stdin>", nullptr);
}

Content content_of(const std::vector<std::string_view>& parts) {
  return [&parts](const std::function<void(std::string_view)>& put) {
    for (std::string_view part : parts)
      put(part);
  };
}

void write_stdout(const Content& content) {
  std::cout.flush();
  content([](std::string_view part) {
    while (!part.empty()) {
      ssize_t n = ::write(STDOUT_FILENO, part.data(), part.size());
      if (n < 0) {
        if (errno == EINTR) continue;
        fail(ErrorKind::Input, std::string("cannot write <stdout>: ") + std::strerror(errno));
      }
      part.remove_prefix(static_cast<std::size_t>(n));
    }
  });
}

void write_stdout(const std::vector<std::string_view>& parts) {
  write_stdout(content_of(parts));
}

}  // namespace archfit
