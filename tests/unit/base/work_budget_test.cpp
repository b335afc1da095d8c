// The budget of work that grows as a product of inputs.
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include <archfit/base/work_budget.hpp>

namespace archfit {
namespace {

TEST(WorkBudget, GivesWhatItHasAndThenNothing) {
  WorkBudget b(10);
  EXPECT_TRUE(b.spend(4));
  EXPECT_TRUE(b.spend(6));
  EXPECT_TRUE(b.spent());
  EXPECT_FALSE(b.spend(1));
  WorkBudget c(10);
  EXPECT_FALSE(c.spend(11));  // more than is left: nothing, and spent from then on
  EXPECT_FALSE(c.spend(1));
  EXPECT_EQ(c.total(), 10u);
}

TEST(WorkBudget, GrowsWithTheInput) {
  EXPECT_EQ(WorkBudget::for_input(0).total(), WorkBudget::kLeast);
  EXPECT_EQ(WorkBudget::for_input(1000).total(),
            WorkBudget::kLeast + 1000 / WorkBudget::kBytesPerStep);
}

TEST(WorkBudget, IsSharedByThreadsWithoutLosingASteps) {
  WorkBudget b(400000);
  std::vector<std::thread> threads;
  std::atomic<int> granted{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 100000; ++i)
        granted += b.spend(1) ? 1 : 0;
    });
  }
  for (std::thread& t : threads)
    t.join();
  EXPECT_EQ(granted.load(), 400000);
  EXPECT_FALSE(b.spend(1));
}

}  // namespace
}  // namespace archfit
