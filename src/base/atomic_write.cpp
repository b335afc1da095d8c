#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

#include <archfit/base/atomic_write.hpp>
#include <archfit/base/error.hpp>

namespace archfit {

namespace {
[[noreturn]] void fail_write(const std::filesystem::path& path, const std::string& why) {
  fail(ErrorKind::Input, "cannot write " + path.string() + ": " + why);
}
}  // namespace

void write_atomically(const std::filesystem::path& path, std::string_view data) {
  write_atomically(path, std::vector<std::string_view>{data});
}

void write_atomically(const std::filesystem::path& path,
                      const std::vector<std::string_view>& parts) {
  // A symlink is written through, so the link stays a link. A path that does
  // not exist yet is created.
  std::error_code ec;
  std::filesystem::path target = path;
  if (std::filesystem::symlink_status(path, ec).type() == std::filesystem::file_type::symlink) {
    target = std::filesystem::weakly_canonical(path, ec);
    if (ec) fail_write(path, ec.message());
  }

  struct stat st {};
  mode_t mode = 0644;
  if (::stat(target.c_str(), &st) == 0) {
    if ((st.st_mode & 0222) == 0) fail_write(path, "the file is read-only");
    mode = st.st_mode & 07777;
  } else if (errno != ENOENT) {
    fail_write(path, std::strerror(errno));
  }

  std::filesystem::path dir = target.parent_path();
  if (dir.empty()) dir = ".";
  std::string name = ".";
  name += target.filename().string();
  name += ".archfit-XXXXXX";
  std::string temp = (dir / name).string();
  int fd = ::mkstemp(temp.data());
  if (fd < 0) fail_write(path, std::strerror(errno));
  auto give_up = [&](int err) {
    ::close(fd);
    ::unlink(temp.c_str());
    fail_write(path, std::strerror(err));
  };
  for (std::string_view part : parts) {
    while (!part.empty()) {
      ssize_t n = ::write(fd, part.data(), part.size());
      if (n < 0) {
        if (errno == EINTR) continue;
        give_up(errno);
      }
      part.remove_prefix(static_cast<std::size_t>(n));
    }
  }
  if (::fchmod(fd, mode) != 0 || ::fsync(fd) != 0) give_up(errno);
  if (::close(fd) != 0) {
    int err = errno;
    ::unlink(temp.c_str());
    fail_write(path, std::strerror(err));
  }
  if (::rename(temp.c_str(), target.c_str()) != 0) {
    int err = errno;
    ::unlink(temp.c_str());
    fail_write(path, std::strerror(err));
  }
}

}  // namespace archfit
