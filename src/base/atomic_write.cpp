#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <fcntl.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

#include <archfit/base/atomic_write.hpp>
#include <archfit/base/chunked_buf.hpp>
#include <archfit/base/error.hpp>

#include "base/gathered_write.hpp"

namespace archfit {

namespace {

[[noreturn]] void fail_write(const std::filesystem::path& path, const std::string& why) {
  fail(ErrorKind::Input, "cannot write " + path.string() + ": " + why);
}

// The hidden name a replacement of `target` takes beside it, before the
// rename: ".<name>.archfit-" and what makes it unique.
std::string temp_prefix(const std::filesystem::path& target) {
  std::filesystem::path dir = target.parent_path();
  if (dir.empty()) dir = ".";
  return (dir / ("." + target.filename().string() + ".archfit-")).string();
}

}  // namespace

PendingWrite::PendingWrite(const std::filesystem::path& path,
                           const std::vector<std::string_view>& parts, const FileIdentity* read_as)
    : path_(path), target_(path) {
  if (read_as != nullptr) read_as_ = *read_as;
  open(false);
  // Many parts to a system call: a file of many edited documents is
  // thousands of small parts (the edits and the bytes between them).
  int err = detail::write_gathered(fd_, parts, [this](std::size_t n) {
    written_ += static_cast<std::uint64_t>(n);
    start_writeback();
  });
  if (err != 0) give_up(err);
  finish();
}

PendingWrite::PendingWrite(const std::filesystem::path& path, const Content& content,
                           const FileIdentity* read_as)
    : path_(path), target_(path) {
  if (read_as != nullptr) read_as_ = *read_as;
  open(false);
  try {
    content([this](std::string_view part) { append(part); });
  } catch (...) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    if (!temp_.empty()) ::unlink(temp_.c_str());
    temp_.clear();
    throw;
  }
  finish();
}

PendingWrite::PendingWrite(const std::filesystem::path& path, Durability durability)
    : path_(path), target_(path), durability_(durability) {
  open(true);
}

PendingWrite::~PendingWrite() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_ && !temp_.empty()) ::unlink(temp_.c_str());
}

void PendingWrite::open(bool unnamed) {
  // A symlink is written through, so the link stays a link. A path that does
  // not exist yet is created.
  std::error_code ec;
  if (std::filesystem::symlink_status(path_, ec).type() == std::filesystem::file_type::symlink) {
    target_ = std::filesystem::weakly_canonical(path_, ec);
    if (ec) fail_write(path_, ec.message());
  }

  struct stat st {};
  if (::stat(target_.c_str(), &st) == 0) {
    exists_ = true;
    if (!S_ISREG(st.st_mode)) {
      fail_write(path_,
                 "it is not a regular file (a device, a FIFO or a directory); give the "
                 "path of a file");
    }
    if ((st.st_mode & 0222) == 0) fail_write(path_, "the file is read-only");
    if (st.st_nlink > 1) {
      fail_write(path_, "the file has " + std::to_string(st.st_nlink) +
                            " hard links, and replacing it would leave the others with the old "
                            "content; make it a file of its own (cp --remove-destination), or "
                            "fix it through stdin and stdout");
    }
    mode_ = st.st_mode & 07777;
    owner_ = st.st_uid;
    group_ = st.st_gid;
  } else if (errno != ENOENT) {
    fail_write(path_, std::strerror(errno));
  }
  check_unchanged();

  std::filesystem::path dir = target_.parent_path();
  if (dir.empty()) dir = ".";
  // An unnamed file is named by a link through /proc when it is finished.
  if (unnamed && ::access("/proc/self/fd", X_OK) == 0) {
    fd_ = ::open(dir.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
    if (fd_ >= 0) return;
    if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL) {
      fail_write(path_, std::strerror(errno));
    }
  }
  temp_ = temp_prefix(target_) + "XXXXXX";
  fd_ = ::mkstemp(temp_.data());
  if (fd_ < 0) {
    int err = errno;
    temp_.clear();
    fail_write(path_, std::strerror(err));
  }
}

void PendingWrite::give_up(int err, const std::string& why) {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  if (!temp_.empty()) ::unlink(temp_.c_str());
  temp_.clear();
  fail_write(path_, why.empty() ? std::strerror(err) : why);
}

void PendingWrite::append(std::string_view data) {
  if (fd_ < 0) fail_write(path_, "the replacement is already finished");
  while (!data.empty()) {
    ssize_t n = ::write(fd_, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      give_up(errno);
    }
    data.remove_prefix(static_cast<std::size_t>(n));
    written_ += static_cast<std::uint64_t>(n);
  }
  start_writeback();
}

// The disk starts on what is written a MiB at a time, while the rest is
// being made: finish()'s fsync then waits for the last piece, not for all of
// it. A hint; what fails shows in the fsync.
void PendingWrite::start_writeback() {
#ifdef SYNC_FILE_RANGE_WRITE
  constexpr std::uint64_t kWriteback = std::uint64_t{1} << 20;
  if (durability_ != Durability::Disk || written_ - sent_ < kWriteback) return;
  ::sync_file_range(fd_, static_cast<off_t>(sent_), static_cast<off_t>(written_ - sent_),
                    SYNC_FILE_RANGE_WRITE);
  sent_ = written_;
#endif
}

void PendingWrite::name_it() {
  const std::string prefix = temp_prefix(target_) + std::to_string(::getpid()) + "-";
  const std::string self = "/proc/self/fd/" + std::to_string(fd_);
  for (unsigned n = 0; n < 1000; ++n) {
    std::string name = prefix + std::to_string(n);
    if (::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, name.c_str(), AT_SYMLINK_FOLLOW) == 0) {
      temp_ = std::move(name);
      return;
    }
    if (errno != EEXIST) give_up(errno);
  }
  give_up(EEXIST);
}

void PendingWrite::finish() {
  if (fd_ < 0) return;
  // Owner and group first: changing them can clear the set-id bits of the mode.
  if (exists_ && (owner_ != ::geteuid() || group_ != ::getegid()) &&
      ::fchown(fd_, owner_, group_) != 0) {
    int err = errno;
    give_up(err, "cannot keep its owner and group (" + std::to_string(owner_) + ":" +
                     std::to_string(group_) + "): " + std::strerror(err) +
                     "; run archfit as the file's owner");
  }
  if (::fchmod(fd_, mode_) != 0) give_up(errno);
  if (durability_ == Durability::Disk && ::fsync(fd_) != 0) give_up(errno);
  if (temp_.empty()) name_it();
  int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) give_up(errno);
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
  finish();
  try {
    check_unchanged();
  } catch (...) {
    ::unlink(temp_.c_str());
    temp_.clear();
    throw;
  }
  if (::rename(temp_.c_str(), target_.c_str()) != 0) give_up(errno);
  committed_ = true;
}

// Chunks into the PendingWrite; the first failure is kept for commit().
class StreamedWrite::Buffer : public ChunkedBuf {
 public:
  explicit Buffer(PendingWrite& file) : file_(file) {}

  void rethrow() const {
    if (failure_) std::rethrow_exception(failure_);
  }

 protected:
  void take(std::string_view data) override {
    if (failure_) return;
    try {
      file_.append(data);
    } catch (...) {
      failure_ = std::current_exception();
    }
  }

 private:
  PendingWrite& file_;
  std::exception_ptr failure_;
};

StreamedWrite::StreamedWrite(const std::filesystem::path& path, Durability durability)
    : file_(path, durability),
      buffer_(std::make_unique<Buffer>(file_)),
      out_(std::make_unique<std::ostream>(buffer_.get())) {}

StreamedWrite::~StreamedWrite() = default;

std::ostream& StreamedWrite::out() {
  return *out_;
}

void StreamedWrite::finish() {
  buffer_->drain();
  buffer_->rethrow();
  file_.finish();
}

void StreamedWrite::commit() {
  finish();
  file_.commit();
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
