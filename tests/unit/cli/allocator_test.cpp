// The program's operator new and delete: every block handed out holds what
// was asked for and is nobody else's, whichever thread freed it before; a
// freed small block is handed out again first when the cache is on.
#include "cli/allocator.hpp"

#include <cstring>
#include <functional>
#include <limits>
#include <malloc.h>
#include <memory>
#include <random>
#include <thread>
#include <unistd.h>
#include <vector>

#include <gtest/gtest.h>

namespace archfit::cli {
namespace {

// A block of n bytes filled with its own tag, checked before it goes.
struct Tagged {
  unsigned char* bytes;
  std::size_t size;
  unsigned char tag;
};

Tagged make_tagged(std::size_t size, unsigned char tag) {
  auto* bytes = static_cast<unsigned char*>(::operator new(size));
  EXPECT_GE(malloc_usable_size(bytes), size);
  std::memset(bytes, tag, size);
  return Tagged{bytes, size, tag};
}

bool intact(const Tagged& t) {
  for (std::size_t i = 0; i < t.size; ++i)
    if (t.bytes[i] != t.tag) return false;
  return true;
}

// Makes blocks of up to 1,500 bytes and frees one at random every third
// step (`release`), checking that each is intact when it goes.
void churn(unsigned seed, const std::function<void(const Tagged&, std::mt19937&)>& release) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<std::size_t> size(0, 1500);
  std::vector<Tagged> live;
  unsigned char tag = 0;
  for (int step = 0; step < 200000; ++step) {
    if (live.empty() || rng() % 3 != 0) {
      live.push_back(make_tagged(size(rng), ++tag));
      continue;
    }
    std::size_t i = rng() % live.size();
    ASSERT_TRUE(intact(live[i])) << "block of " << live[i].size << " bytes overwritten";
    release(live[i], rng);
    live[i] = live.back();
    live.pop_back();
  }
  for (const Tagged& t : live) {
    ASSERT_TRUE(intact(t));
    release(t, rng);
  }
}

TEST(Allocator, BlocksHoldTheirSizeAndAreNobodyElsesOnGeneratedWorkloads) {
  churn(28, [](const Tagged& t, std::mt19937&) { ::operator delete(t.bytes); });
}

// The same with every block freed as the compiler and the containers free
// them, with the size it was asked for (some without, as a C++ library may):
// a block goes back to its class by that size and serves any request of it.
TEST(Allocator, BlocksFreedWithTheirSizeServeTheirClass) {
  churn(29, [](const Tagged& t, std::mt19937& rng) {
    if (rng() % 8 == 0) {
      ::operator delete(t.bytes);
    } else {
      ::operator delete(t.bytes, t.size);
    }
  });
  // 90 and 104 bytes are one class: the block of the one serves the other whole.
  void* first = ::operator new(90);
  ::operator delete(first, 90);
  void* second = ::operator new(104);
  EXPECT_GE(malloc_usable_size(second), 104u);
  EXPECT_EQ(second == first, thread_cache_active());
  ::operator delete(second, 104);
}

TEST(Allocator, BlocksFreedOnAnotherThreadServeThatThread) {
  // Made here, freed and made again on a helper thread that then ends (and
  // gives back what it kept), while this thread goes on making blocks.
  std::vector<Tagged> made;
  for (std::size_t i = 0; i < 5000; ++i)
    made.push_back(make_tagged(i % 1100, static_cast<unsigned char>(i)));
  std::thread other([&made] {
    std::vector<Tagged> again;
    for (const Tagged& t : made) {
      EXPECT_TRUE(intact(t));
      ::operator delete(t.bytes);
    }
    for (std::size_t i = 0; i < 5000; ++i)
      again.push_back(make_tagged(i % 1100, static_cast<unsigned char>(~i)));
    for (const Tagged& t : again) {
      EXPECT_TRUE(intact(t));
      ::operator delete(t.bytes);
    }
  });
  std::vector<std::unique_ptr<std::vector<int>>> mine;
  for (int i = 0; i < 5000; ++i)
    mine.push_back(std::make_unique<std::vector<int>>(static_cast<std::size_t>(i % 200), i));
  other.join();
  for (int i = 0; i < 5000; ++i) {
    ASSERT_EQ(mine[static_cast<std::size_t>(i)]->size(), static_cast<std::size_t>(i % 200));
    for (int v : *mine[static_cast<std::size_t>(i)])
      ASSERT_EQ(v, i);
  }
}

TEST(Allocator, AFreedSmallBlockIsHandedOutAgainWhenTheCacheIsOn) {
  void* first = ::operator new(100);
  ::operator delete(first);
  void* second = ::operator new(100);
  // The sanitizers hold a freed block back (to find it used after free).
  EXPECT_EQ(second == first, thread_cache_active());
  ::operator delete(second);
  // Larger blocks are malloc's alone.
  void* big = ::operator new (std::size_t{1} << 20);
  std::memset(big, 1, std::size_t{1} << 20);
  ::operator delete(big);
}

// A request too large for any memory is refused, even with small blocks
// kept: its size must not wrap round to a small class. (Under the
// sanitizers, operator new and its refusal are theirs.)
TEST(Allocator, ARequestNearTheLargestSizeIsRefused) {
  void* small = ::operator new(8);
  ::operator delete(small);  // kept: class 2 is not empty
  if (!thread_cache_active()) return;
  for (std::size_t n :
       {std::numeric_limits<std::size_t>::max(), std::numeric_limits<std::size_t>::max() - 10,
        std::numeric_limits<std::size_t>::max() - 30}) {
    EXPECT_THROW(static_cast<void>(::operator new(n)), std::bad_alloc) << n;
  }
}

// Once the heap grows, it grows by kHeapStep at least; under the sanitizers,
// whose heap is not the break's, nothing changes.
TEST(Allocator, TheHeapGrowsInLargeSteps) {
  grow_heap_in_large_steps();
  // Blocks below malloc's mmap threshold come from the heap, until what it
  // has is used up and the break moves (the first move is measured).
  constexpr std::size_t kBlock = 64 * 1024;
  std::vector<void*> blocks;
  const auto* start = static_cast<const char*>(::sbrk(0));
  const char* now = start;
  while (now == start && blocks.size() < 4096) {
    blocks.push_back(std::malloc(kBlock));
    now = static_cast<const char*>(::sbrk(0));
  }
  const auto moved = static_cast<std::size_t>(now - start);
  for (void* b : blocks)
    std::free(b);
  EXPECT_EQ(moved >= kHeapStep, thread_cache_active()) << moved << " bytes";
}

}  // namespace
}  // namespace archfit::cli
