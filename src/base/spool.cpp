#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <streambuf>
#include <sys/mman.h>
#include <unistd.h>

#include <archfit/base/chunked_buf.hpp>
#include <archfit/base/error.hpp>
#include <archfit/base/spool.hpp>

namespace archfit {

namespace {

std::string temp_directory() {
  const char* dir = std::getenv("TMPDIR");
  return dir != nullptr && *dir != '\0' ? dir : "/tmp";
}

}  // namespace

// Full chunks go to memory until the limit, then to the temporary file.
class Spool::Buffer : public ChunkedBuf {
 public:
  explicit Buffer(std::size_t limit) : limit_(limit) {}
  ~Buffer() override {
    if (map_ != nullptr) ::munmap(map_, map_size_);
    if (fd_ >= 0) ::close(fd_);
  }

  std::string_view view() {
    drain();
    if (!error_.empty()) fail(ErrorKind::Input, error_);
    if (fd_ < 0) return memory_;
    if (written_ == 0) return {};
    if (map_ == nullptr || map_size_ != static_cast<std::size_t>(written_)) {
      if (map_ != nullptr) ::munmap(map_, map_size_);
      map_size_ = static_cast<std::size_t>(written_);
      map_ = ::mmap(nullptr, map_size_, PROT_READ, MAP_PRIVATE, fd_, 0);
      if (map_ == MAP_FAILED) {
        map_ = nullptr;
        fail(ErrorKind::Input, "cannot read back the output held in a temporary file in " +
                                   temp_directory() + ": " + std::strerror(errno));
      }
    }
    return std::string_view(static_cast<const char*>(map_), map_size_);
  }

  bool spilled() const { return fd_ >= 0; }

  Content content() {
    drain();
    if (!error_.empty()) fail(ErrorKind::Input, error_);
    return [this](const std::function<void(std::string_view)>& put) {
      if (fd_ < 0) {
        for (std::size_t at = 0; at < memory_.size(); at += kChunk) {
          put(std::string_view(memory_).substr(at, kChunk));
        }
        return;
      }
      std::array<char, kChunk> piece{};
      for (off_t at = 0; at < written_;) {
        ssize_t n = ::pread(fd_, piece.data(), piece.size(), at);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
          fail(ErrorKind::Input, "cannot read back the output held in a temporary file in " +
                                     temp_directory() + ": " +
                                     (n < 0 ? std::strerror(errno) : "it is shorter"));
        }
        put(std::string_view(piece.data(), static_cast<std::size_t>(n)));
        at += n;
      }
    };
  }

 protected:
  void take(std::string_view data) override {
    if (fd_ < 0 && memory_.size() + data.size() > limit_ && !tried_file_) spill();
    if (fd_ < 0) {
      memory_.append(data);
    } else {
      write_file(data);
    }
  }

 private:
  // Moves what memory holds into a new temporary file; where none can be
  // made, everything stays in memory.
  void spill() {
    tried_file_ = true;
    std::string name = temp_directory() + "/archfit-output-XXXXXX";
    int fd = ::mkstemp(name.data());
    if (fd < 0) return;
    ::unlink(name.c_str());
    fd_ = fd;
    write_file(memory_);
    std::string().swap(memory_);
  }

  void write_file(std::string_view data) {
    while (!data.empty() && error_.empty()) {
      ssize_t n = ::pwrite(fd_, data.data(), data.size(), written_);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        error_ = "cannot hold the output in a temporary file in " + temp_directory() + ": " +
                 std::strerror(errno) + "; set TMPDIR to a directory with room";
        return;
      }
      written_ += n;
      data.remove_prefix(static_cast<std::size_t>(n));
    }
  }

  std::size_t limit_;
  std::string memory_;
  int fd_ = -1;
  bool tried_file_ = false;
  off_t written_ = 0;
  std::string error_;
  void* map_ = nullptr;  // view() of the file
  std::size_t map_size_ = 0;
};

Spool::Spool(std::size_t memory_limit)
    : buffer_(std::make_unique<Buffer>(memory_limit)),
      out_(std::make_unique<std::ostream>(buffer_.get())) {}

Spool::~Spool() = default;

std::ostream& Spool::out() {
  return *out_;
}

Content Spool::content() {
  return buffer_->content();
}

std::string_view Spool::view() {
  return buffer_->view();
}

bool Spool::spilled() const {
  return buffer_->spilled();
}

}  // namespace archfit
