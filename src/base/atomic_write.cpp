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

PendingWrite::PendingWrite(const std::filesystem::path& path,
                           const std::vector<std::string_view>& parts)
    : path_(path), target_(path) {
  // A symlink is written through, so the link stays a link. A path that does
  // not exist yet is created.
  std::error_code ec;
  if (std::filesystem::symlink_status(path, ec).type() == std::filesystem::file_type::symlink) {
    target_ = std::filesystem::weakly_canonical(path, ec);
    if (ec) fail_write(path, ec.message());
  }

  struct stat st {};
  mode_t mode = 0644;
  if (::stat(target_.c_str(), &st) == 0) {
    if ((st.st_mode & 0222) == 0) fail_write(path, "the file is read-only");
    mode = st.st_mode & 07777;
  } else if (errno != ENOENT) {
    fail_write(path, std::strerror(errno));
  }

  std::filesystem::path dir = target_.parent_path();
  if (dir.empty()) dir = ".";
  std::string name = ".";
  name += target_.filename().string();
  name += ".archfit-XXXXXX";
  temp_ = (dir / name).string();
  int fd = ::mkstemp(temp_.data());
  if (fd < 0) {
    int err = errno;
    temp_.clear();
    fail_write(path, std::strerror(err));
  }
  auto give_up = [&](int err) {
    ::close(fd);
    ::unlink(temp_.c_str());
    temp_.clear();
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
    ::unlink(temp_.c_str());
    temp_.clear();
    fail_write(path, std::strerror(err));
  }
}

PendingWrite::~PendingWrite() {
  if (!committed_ && !temp_.empty()) ::unlink(temp_.c_str());
}

void PendingWrite::commit() {
  if (::rename(temp_.c_str(), target_.c_str()) != 0) {
    int err = errno;
    ::unlink(temp_.c_str());
    temp_.clear();
    fail_write(path_, std::strerror(err));
  }
  committed_ = true;
}

void write_atomically(const std::filesystem::path& path, std::string_view data) {
  write_atomically(path, std::vector<std::string_view>{data});
}

void write_atomically(const std::filesystem::path& path,
                      const std::vector<std::string_view>& parts) {
  PendingWrite(path, parts).commit();
}

}  // namespace archfit
