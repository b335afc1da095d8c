#include <atomic>
#include <cerrno>
#include <cstring>
#include <deque>
#include <fcntl.h>
#include <linux/openat2.h>
#include <optional>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <vector>

#include <archfit/base/confined.hpp>
#include <archfit/base/error.hpp>
#include <archfit/base/text.hpp>

namespace archfit {

namespace fs = std::filesystem;

namespace {

std::atomic<bool> walk_only{false};

// Links followed on the way, as the kernel allows (MAXSYMLINKS).
constexpr int kMostLinks = 40;

// `how` says where the path leads: "lies outside", "is a link to \"/x\", outside".
[[noreturn]] void fail_outside(const fs::path& path, const fs::path& root, const std::string& how) {
  fail(ErrorKind::Input, "cannot read " + archfit::quoted(path.string()) + ": it " + how + " " +
                             archfit::quoted(root.string()) +
                             "; archfit reads what a repository names only inside it");
}

[[noreturn]] void fail_open(const fs::path& path, int err) {
  fail(ErrorKind::Input,
       "cannot read " + archfit::quoted(path.string()) + ": " + std::strerror(err));
}

// `path`'s components after `root`, lexically; nothing when it does not lie
// under root as written.
std::optional<std::vector<std::string>> below(const fs::path& root, const fs::path& path) {
  std::error_code ec;
  fs::path r = fs::absolute(root, ec).lexically_normal();
  fs::path p = fs::absolute(path, ec).lexically_normal();
  fs::path rel = p.lexically_relative(r);
  if (rel.empty() || *rel.begin() == "..") return std::nullopt;
  std::vector<std::string> out;
  for (const fs::path& part : rel) {
    if (part != "." && !part.empty()) out.push_back(part.string());
  }
  return out;
}

int final_flags(bool directory) {
  // O_NONBLOCK: a FIFO is refused, not waited on (read_opened refuses it).
  return directory ? O_PATH | O_DIRECTORY | O_CLOEXEC : O_RDONLY | O_CLOEXEC | O_NONBLOCK;
}

// openat2 beneath root: the open file, or -1 with errno (ENOSYS: no openat2).
int open_beneath(int root_fd, const std::vector<std::string>& parts, bool directory) {
  std::string rel;
  for (const std::string& p : parts)
    rel += (rel.empty() ? "" : "/") + p;
  if (rel.empty()) rel = ".";
  open_how how{};
  how.flags = static_cast<std::uint64_t>(final_flags(directory));
  how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
  return static_cast<int>(::syscall(SYS_openat2, root_fd, rel.c_str(), &how, sizeof how));
}

// The walk: each component opened with O_NOFOLLOW from the directory before
// it; a link read and its target's components put in front of the rest.
UniqueFd open_by_walk(int root_fd, const fs::path& path, const fs::path& root,
                      const std::vector<std::string>& parts, bool directory) {
  std::deque<std::string> left(parts.begin(), parts.end());
  std::vector<UniqueFd> dirs;  // the directories walked into, below root
  auto current = [&]() { return dirs.empty() ? root_fd : dirs.back().get(); };
  int links = 0;
  while (!left.empty()) {
    std::string part = std::move(left.front());
    left.pop_front();
    if (part == "." || part.empty()) continue;
    if (part == "..") {
      if (dirs.empty()) fail_outside(path, root, "leads above");
      dirs.pop_back();
      continue;
    }
    const bool last = left.empty();
    UniqueFd fd(::openat(current(), part.c_str(), O_PATH | O_NOFOLLOW | O_CLOEXEC));
    if (!fd.valid()) fail_open(path, errno);
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) fail_open(path, errno);
    if (S_ISLNK(st.st_mode)) {
      if (++links > kMostLinks) fail_open(path, ELOOP);
      std::vector<char> target(4096);
      ssize_t n = ::readlinkat(current(), part.c_str(), target.data(), target.size());
      if (n < 0) fail_open(path, errno);
      std::string to(target.data(), static_cast<std::size_t>(n));
      if (to.empty() || to.front() == '/')
        fail_outside(path, root, "leads through a link to " + archfit::quoted(to) + ", outside");
      std::vector<std::string> more;
      for (const fs::path& p : fs::path(to))
        more.push_back(p.string());
      left.insert(left.begin(), more.begin(), more.end());
      continue;
    }
    if (!last) {
      if (!S_ISDIR(st.st_mode)) fail_open(path, ENOTDIR);
      dirs.push_back(std::move(fd));
      continue;
    }
    UniqueFd out(::openat(current(), part.c_str(), final_flags(directory) | O_NOFOLLOW));
    if (!out.valid()) fail_open(path, errno);
    return out;
  }
  // The root itself.
  UniqueFd out(::openat(current(), ".", final_flags(directory)));
  if (!out.valid()) fail_open(path, errno);
  return out;
}

}  // namespace

void confined_by_walk_only(bool on) {
  walk_only.store(on, std::memory_order_relaxed);
}

UniqueFd open_confined(const fs::path& root, const fs::path& path, bool directory) {
  std::optional<std::vector<std::string>> parts = below(root, path);
  if (!parts) fail_outside(path, root, "lies outside");
  UniqueFd root_fd(::open(root.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  if (!root_fd.valid()) fail_open(root, errno);
  if (!walk_only.load(std::memory_order_relaxed)) {
    UniqueFd fd(open_beneath(root_fd.get(), *parts, directory));
    if (fd.valid()) return fd;
    if (errno == EXDEV || errno == ELOOP) {
      // Which of the two it was (a link out, or `..` above the root) the
      // walk says, in its words.
      return open_by_walk(root_fd.get(), path, root, *parts, directory);
    }
    if (errno != ENOSYS && errno != EPERM) fail_open(path, errno);
  }
  return open_by_walk(root_fd.get(), path, root, *parts, directory);
}

std::string read_confined(const fs::path& root, const fs::path& path, const ReadLimit& limit,
                          FileIdentity* identity) {
  UniqueFd fd = open_confined(root, path, false);
  return read_opened(fd.get(), path, limit, identity);
}

fs::path resolve_confined(const fs::path& root, const fs::path& path, bool directory) {
  UniqueFd fd = open_confined(root, path, directory);
  std::error_code ec;
  fs::path real = fs::read_symlink("/proc/self/fd/" + std::to_string(fd.get()), ec);
  if (ec) fail_open(path, ec.value());
  return real;
}

}  // namespace archfit
