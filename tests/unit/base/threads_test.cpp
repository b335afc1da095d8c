// Where the system gives no more threads (a limit on processes), work shared
// among threads is done by those there are: parallel_for runs every item
// exactly once, on the caller alone when no thread is to be had. Each case
// runs in a child process of its own, which the limit cannot outlive.
#include <algorithm>
#include <atomic>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

#include <gtest/gtest.h>

#include <archfit/base/error.hpp>
#include <archfit/base/parallel_for.hpp>
#include <archfit/base/threads.hpp>

#include "support/thread_limit.hpp"

namespace archfit {
namespace {

// Exit status of the child: 0 when every item ran once on at most `most`
// threads, 1 when not, 2 when the limit could not be set.
void run_every_item_under(unsigned allowed, std::size_t most) {
  if (!testing::limit_threads(allowed)) ::_exit(2);
  constexpr std::size_t kItems = 2000;
  std::vector<std::atomic<int>> runs(kItems);
  std::mutex mutex;
  std::set<std::thread::id> threads;
  parallel_for(kItems, 4, [&](std::size_t i) {
    runs[i].fetch_add(1);
    std::lock_guard hold(mutex);
    threads.insert(std::this_thread::get_id());
  });
  for (const std::atomic<int>& r : runs)
    if (r.load() != 1) ::_exit(1);
  ::_exit(threads.size() <= most ? 0 : 1);
}

TEST(ThreadsDeathTest, ParallelForRunsEveryItemOnTheCallerWhenNoThreadIsGiven) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(run_every_item_under(0, 1), ::testing::ExitedWithCode(0), "");
}

TEST(ThreadsDeathTest, ParallelForRunsEveryItemOnTheThreadsThereAre) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(run_every_item_under(1, 2), ::testing::ExitedWithCode(0), "");
}

TEST(Threads, TryThreadStartsAThreadWhenThereIsOne) {
  std::atomic<bool> ran{false};
  std::thread t = try_thread([&ran] { ran = true; });
  ASSERT_TRUE(t.joinable());
  t.join();
  EXPECT_TRUE(ran);
}

// An environment of one variable, ARCHFIT_THREADS, set to `value`.
Getenv threads_set_to(std::optional<std::string> value) {
  return [value](const std::string& name) -> std::optional<std::string> {
    return name == "ARCHFIT_THREADS" ? value : std::nullopt;
  };
}

TEST(Cores, AreTheMachinesUnlessTheEnvironmentSaysFewer) {
  const unsigned machine = std::max(1u, std::thread::hardware_concurrency());
  EXPECT_EQ(cores(threads_set_to(std::nullopt)), machine);
  EXPECT_EQ(cores(threads_set_to("1")), 1u);
  EXPECT_EQ(cores(threads_set_to("2")), std::min(machine, 2u));
  EXPECT_EQ(cores(threads_set_to("4096")), machine);
}

TEST(Cores, AnythingButAWholeNumberFromOneIsAnError) {
  for (const char* value : {"0", "-1", "+1", " 1", "1 ", "1.5", "2x", "x2", "one", "4097",
                            "99999999999999999999", "1\n", "--threads=1", "$(reboot)"}) {
    try {
      cores(threads_set_to(value));
      ADD_FAILURE() << value << " was taken";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Usage) << value;
      EXPECT_NE(e.message().find("ARCHFIT_THREADS is \""), std::string::npos) << e.message();
      EXPECT_NE(e.message().find("from 1 to 4096"), std::string::npos) << e.message();
    }
  }
}

// With ARCHFIT_THREADS=1 the work shared out by cores() stays on the caller.
TEST(Cores, OneKeepsTheWorkOnTheCallingThread) {
  std::set<std::thread::id> threads;
  std::mutex mutex;
  parallel_for(64, cores(threads_set_to("1")), [&](std::size_t) {
    std::lock_guard hold(mutex);
    threads.insert(std::this_thread::get_id());
  });
  EXPECT_EQ(threads, std::set<std::thread::id>{std::this_thread::get_id()});
}

}  // namespace
}  // namespace archfit
