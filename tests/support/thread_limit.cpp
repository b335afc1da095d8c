#include "support/thread_limit.hpp"

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <grp.h>
#include <string>
#include <sys/resource.h>
#include <thread>
#include <unistd.h>
#include <vector>

#include <archfit/base/threads.hpp>

namespace archfit::testing {

namespace {

// A user and group of this process alone: no account has an id this high,
// and no two processes alive at once have one pid, so tests that run side by
// side never count each other's tasks.
uid_t own_id() { return static_cast<uid_t>(1'000'000'000 + ::getpid()); }

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

// The threads of this process now.
unsigned long threads_now() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.starts_with("Threads:")) return std::stoul(line.substr(8));
  return 0;
}

}  // namespace

bool limit_threads(unsigned threads) {
  rlim_t allowed = 0;
  if (::geteuid() == 0) {
    if (::setgroups(0, nullptr) != 0 || ::setgid(own_id()) != 0 || ::setuid(own_id()) != 0)
      return false;
    // The kernel counts a new task before it checks: this process is one.
    allowed = 1 + threads;
  } else {
    allowed = tasks_of(::geteuid()) + threads;
  }
  const rlimit limit{allowed, allowed};
  if (::setrlimit(RLIMIT_NPROC, &limit) != 0) return false;
  // The threads allowed, held until one more has been tried; then gone, so
  // that the caller has them all again.
  std::atomic<bool> release{false};
  std::vector<std::thread> held;
  for (unsigned i = 0; i < threads; ++i) {
    std::thread t = try_thread([&release] {
      while (!release.load())
        std::this_thread::yield();
    });
    if (!t.joinable()) break;
    held.push_back(std::move(t));
  }
  std::thread beyond = try_thread([] {});
  const bool holds = held.size() == threads && !beyond.joinable();
  if (beyond.joinable()) beyond.join();
  release = true;
  for (std::thread& t : held)
    t.join();
  // A joined thread still counts until the kernel has released it: wait
  // until this process is one task again.
  for (int i = 0; i < 5000 && threads_now() > 1; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return holds && threads_now() == 1;
}

}  // namespace archfit::testing
