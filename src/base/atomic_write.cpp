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
                           const std::vector<std::string_view>& parts, const FileIdentity* read_as)
    : PendingWrite(path, content_of(parts), read_as) {}

PendingWrite::PendingWrite(const std::filesystem::path& path, const Content& content,
                           const FileIdentity* read_as)
    : path_(path), target_(path) {
  if (read_as != nullptr) read_as_ = *read_as;
  // A symlink is written through, so the link stays a link. A path that does
  // not exist yet is created.
  std::error_code ec;
  if (std::filesystem::symlink_status(path, ec).type() == std::filesystem::file_type::symlink) {
    target_ = std::filesystem::weakly_canonical(path, ec);
    if (ec) fail_write(path, ec.message());
  }

  struct stat st {};
  mode_t mode = 0644;
  bool exists = false;
  if (::stat(target_.c_str(), &st) == 0) {
    exists = true;
    if ((st.st_mode & 0222) == 0) fail_write(path, "the file is read-only");
    if (st.st_nlink > 1) {
      fail_write(path, "the file has " + std::to_string(st.st_nlink) +
                           " hard links, and replacing it would leave the others with the old "
                           "content; make it a file of its own (cp --remove-destination), or "
                           "fix it through stdin and stdout");
    }
    mode = st.st_mode & 07777;
  } else if (errno != ENOENT) {
    fail_write(path, std::strerror(errno));
  }
  check_unchanged();

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
  try {
    content([&](std::string_view part) {
      while (!part.empty()) {
        ssize_t n = ::write(fd, part.data(), part.size());
        if (n < 0) {
          if (errno == EINTR) continue;
          fail_write(path, std::strerror(errno));
        }
        part.remove_prefix(static_cast<std::size_t>(n));
      }
    });
  } catch (...) {
    ::close(fd);
    ::unlink(temp_.c_str());
    temp_.clear();
    throw;
  }
  // Owner and group first: changing them can clear the set-id bits of the mode.
  if (exists && (st.st_uid != ::geteuid() || st.st_gid != ::getegid()) &&
      ::fchown(fd, st.st_uid, st.st_gid) != 0) {
    int err = errno;
    ::close(fd);
    ::unlink(temp_.c_str());
    temp_.clear();
    fail_write(path, "cannot keep its owner and group (" + std::to_string(st.st_uid) + ":" +
                         std::to_string(st.st_gid) + "): " + std::strerror(err) +
                         "; run archfit as the file's owner");
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

void PendingWrite::check_unchanged() const {
  if (!read_as_) return;
  struct stat now {};
  bool same = ::stat(target_.c_str(), &now) == 0 && identity_from(now).same_content(*read_as_);
  if (!same) {
    fail_write(path_,
               "it changed since archfit read it (another program wrote or replaced it); it is "
               "left as that program wrote it: run archfit again");
  }
}

void PendingWrite::commit() {
  try {
    check_unchanged();
  } catch (...) {
    ::unlink(temp_.c_str());
    temp_.clear();
    throw;
  }
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

void write_atomically(const std::filesystem::path& path, const Content& content) {
  PendingWrite(path, content).commit();
}

}  // namespace archfit
