// HelperThreads: each round's job runs on exactly as many threads as asked
// (at most as many as there are), round after round, and finish() returns
// only when they have all run it.
#include "run/helper_threads.hpp"

#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <random>
#include <set>
#include <thread>
#include <unistd.h>

#include <gtest/gtest.h>

#include "support/thread_limit.hpp"

namespace archfit::run {
namespace {

TEST(HelperThreads, EachRoundRunsOnAsManyThreadsAsAskedAndFinishWaitsForThem) {
  HelperThreads helpers(3);
  ASSERT_EQ(helpers.size(), 3u);
  std::mt19937 random(9);
  for (int round = 0; round < 2000; ++round) {
    const std::size_t asked = random() % 6;  // 0 to 5: beyond the three there are
    std::atomic<int> ran{0};
    std::atomic<bool> slow_done{false};
    std::mutex mutex;
    std::set<std::thread::id> threads;
    const bool slow = round % 100 == 0;
    const std::function<void()> job = [&] {
      if (slow) {
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        slow_done = true;
      }
      ran.fetch_add(1);
      std::lock_guard lock(mutex);
      threads.insert(std::this_thread::get_id());
    };
    helpers.start(asked, job);
    helpers.finish();
    // Once on each of that many threads.
    ASSERT_EQ(ran.load(), static_cast<int>(std::min<std::size_t>(asked, 3))) << round;
    ASSERT_EQ(threads.size(), std::min<std::size_t>(asked, 3)) << round;
    if (slow && asked > 0) {
      ASSERT_TRUE(slow_done.load()) << round;
    }
  }
}

TEST(HelperThreads, RoundsRunOnTheSameThreads) {
  HelperThreads helpers(2);
  std::mutex mutex;
  std::set<std::thread::id> seen;
  const std::function<void()> job = [&] {
    std::lock_guard lock(mutex);
    seen.insert(std::this_thread::get_id());
  };
  for (int round = 0; round < 200; ++round) {
    helpers.start(2, job);
    helpers.finish();
  }
  EXPECT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen.count(std::this_thread::get_id()), 0u);
}

TEST(HelperThreads, NoneAndNoRoundAtAll) {
  { HelperThreads none(0); }
  HelperThreads idle(2);  // ends without a round
  HelperThreads zero(0);
  int ran = 0;
  const std::function<void()> job = [&] { ++ran; };
  zero.start(4, job);
  zero.finish();
  EXPECT_EQ(ran, 0);
}

// With one thread to be had of three asked for, rounds run on that one and
// finish() waits for it alone (exit 0), in a child process of its own.
TEST(HelperThreadsDeathTest, FewerThreadsThanAskedForShareTheRounds) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        if (!testing::limit_threads(1)) ::_exit(2);
        HelperThreads helpers(3);
        if (helpers.size() != 1) ::_exit(1);
        std::atomic<int> runs{0};
        const std::function<void()> job = [&runs] { runs.fetch_add(1); };
        for (int round = 0; round < 50; ++round) {
          helpers.start(3, job);
          helpers.finish();
        }
        ::_exit(runs.load() == 50 ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
}

}  // namespace
}  // namespace archfit::run
