#include "support/thread_limit.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <grp.h>
#include <string>
#include <sys/resource.h>
#include <unistd.h>

#include <archfit/base/threads.hpp>

namespace archfit::testing {

namespace {

// A user and group no process on the machine runs as.
constexpr uid_t kOwnId = 61111;

// The tasks (threads) the processes of `uid` have now.
rlim_t tasks_of(uid_t uid) {
  rlim_t count = 0;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/proc", ec)) {
    std::ifstream status(entry.path() / "status");
    bool mine = false;
    for (std::string line; std::getline(status, line);) {
      if (line.starts_with("Uid:")) mine = std::stoul(line.substr(4)) == uid;
      if (mine && line.starts_with("Threads:")) count += std::stoul(line.substr(8));
    }
  }
  return count;
}

}  // namespace

bool limit_threads(unsigned threads) {
  rlim_t allowed = 0;
  if (::geteuid() == 0) {
    if (::setgroups(0, nullptr) != 0 || ::setgid(kOwnId) != 0 || ::setuid(kOwnId) != 0)
      return false;
    // The kernel counts a new task before it checks: this process is one.
    allowed = 1 + threads;
  } else {
    allowed = tasks_of(::geteuid()) + threads;
  }
  const rlimit limit{allowed, allowed};
  if (::setrlimit(RLIMIT_NPROC, &limit) != 0) return false;
  if (threads != 0) return true;
  std::thread refused = try_thread([] {});
  if (!refused.joinable()) return true;
  refused.join();
  return false;
}

}  // namespace archfit::testing
