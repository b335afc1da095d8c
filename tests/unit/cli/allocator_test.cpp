// The program's heap: mimalloc serves operator new and malloc alike (under
// the sanitizers, theirs), and every block handed out holds what was asked
// for and is nobody else's, whichever thread freed blocks before it and
// however they were freed (with their size, as the compiler and the
// containers free them, or without).
#include "cli/allocator.hpp"

#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <malloc.h>
#include <memory>
#include <new>
#include <random>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#if defined(ARCHFIT_ALLOCATOR_MIMALLOC)
#include <mimalloc.h>
#endif

namespace archfit::cli {
namespace {

std::size_t usable_size(void* p) {
#if defined(ARCHFIT_ALLOCATOR_MIMALLOC)
  return mi_usable_size(p);
#else
  return malloc_usable_size(p);
#endif
}

// A block of n bytes filled with its own tag, checked before it goes.
struct Tagged {
  unsigned char* bytes;
  std::size_t size;
  unsigned char tag;
};

Tagged make_tagged(std::size_t size, unsigned char tag) {
  auto* bytes = static_cast<unsigned char*>(::operator new(size));
  EXPECT_GE(usable_size(bytes), size);
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

TEST(Allocator, MimallocServesNewAndMallocAlike) {
#if defined(__SANITIZE_ADDRESS__)
  EXPECT_FALSE(mimalloc_heap());
#endif
  if (!mimalloc_heap()) return;
#if defined(ARCHFIT_ALLOCATOR_MIMALLOC)
  void* made = ::operator new(100);
  void* allocated = std::malloc(100);
  EXPECT_TRUE(mi_is_in_heap_region(made));
  EXPECT_TRUE(mi_is_in_heap_region(allocated));
  std::free(allocated);
  ::operator delete(made, 100);
#endif
}

TEST(Allocator, BlocksHoldTheirSizeAndAreNobodyElsesOnGeneratedWorkloads) {
  churn(28, [](const Tagged& t, std::mt19937&) { ::operator delete(t.bytes); });
}

TEST(Allocator, BlocksFreedWithTheirSizeOrWithoutAreNobodyElses) {
  churn(29, [](const Tagged& t, std::mt19937& rng) {
    if (rng() % 8 == 0) {
      ::operator delete(t.bytes);
    } else {
      ::operator delete(t.bytes, t.size);
    }
  });
}

TEST(Allocator, BlocksFreedOnAnotherThreadAreNobodyElses) {
  // Made here, freed and made again on a helper thread that then ends, while
  // this thread goes on making blocks.
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

// A request too large for any memory is refused with bad_alloc. (Under the
// sanitizers, operator new and its refusal are theirs.)
TEST(Allocator, ARequestNearTheLargestSizeIsRefused) {
  if (!mimalloc_heap()) return;
  for (std::size_t n :
       {std::numeric_limits<std::size_t>::max(), std::numeric_limits<std::size_t>::max() - 10,
        std::numeric_limits<std::size_t>::max() - 30}) {
    EXPECT_THROW(static_cast<void>(::operator new(n)), std::bad_alloc) << n;
  }
}

}  // namespace
}  // namespace archfit::cli
