// Where the system gives no more threads (a limit on processes), work shared
// among threads is done by those there are: parallel_for runs every item
// exactly once, on the caller alone when no thread is to be had. Each case
// runs in a child process of its own, which the limit cannot outlive.
#include <atomic>
#include <mutex>
#include <set>
#include <thread>
#include <unistd.h>
#include <vector>

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace archfit
