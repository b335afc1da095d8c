#include "base/gathered_write.hpp"

#include <cerrno>
#include <sys/uio.h>

namespace archfit::detail {

int write_gathered(int fd, const std::vector<std::string_view>& parts,
                   const std::function<void(std::size_t)>& wrote) {
  // IOV_MAX is 1024 on Linux; POSIX asks for 16 at least.
  constexpr std::size_t kParts = 1024;
  std::vector<iovec> batch;
  batch.reserve(kParts);
  auto flush = [&batch, fd, &wrote]() -> int {
    std::size_t first = 0;
    while (first < batch.size()) {
      ssize_t n = ::writev(fd, batch.data() + first, static_cast<int>(batch.size() - first));
      if (n < 0) {
        if (errno == EINTR) continue;
        return errno;
      }
      if (n == 0) return EIO;
      if (wrote) wrote(static_cast<std::size_t>(n));
      // Skip what was written, whole parts and then a part's head.
      auto written = static_cast<std::size_t>(n);
      while (first < batch.size() && written >= batch[first].iov_len) {
        written -= batch[first].iov_len;
        ++first;
      }
      if (written > 0) {
        batch[first].iov_base = static_cast<char*>(batch[first].iov_base) + written;
        batch[first].iov_len -= written;
      }
    }
    batch.clear();
    return 0;
  };
  for (std::string_view part : parts) {
    if (part.empty()) continue;
    batch.push_back(iovec{const_cast<char*>(part.data()), part.size()});
    if (batch.size() == kParts) {
      if (int err = flush()) return err;
    }
  }
  return flush();
}

}  // namespace archfit::detail
