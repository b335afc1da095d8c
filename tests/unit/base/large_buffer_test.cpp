#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include <archfit/base/large_buffer.hpp>

namespace archfit {
namespace {

// Buffers on both sides of the threshold hold what is written to them, and a
// large one starts on a huge page's boundary (else the kernel could give no
// huge page for its first bytes).
TEST(LargeBuffer, SmallAndLargeBuffersHoldTheirBytes) {
  for (std::size_t bytes : {std::size_t{1}, std::size_t{4096}, kLargeBuffer - 1, kLargeBuffer,
                            kLargeBuffer + 1, std::size_t{2} << 20, (std::size_t{5} << 20) + 7}) {
    auto* p = static_cast<unsigned char*>(allocate_buffer(bytes));
    ASSERT_NE(p, nullptr);
    // Aligned for any object that fits: an object's alignment divides its
    // size, so a block of 1 byte needs none and one of 16 or more, the
    // largest (the heap, mimalloc, aligns blocks to their size class).
    const std::size_t natural = std::min(alignof(std::max_align_t), std::bit_floor(bytes));
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % natural, 0u) << bytes;
    if (bytes >= kLargeBuffer) {
      EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % (std::size_t{2} << 20), 0u) << bytes;
    }
    for (std::size_t i = 0; i < bytes; ++i)
      p[i] = static_cast<unsigned char>(i * 7);
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < bytes; ++i)
      wrong += p[i] != static_cast<unsigned char>(i * 7);
    EXPECT_EQ(wrong, 0u) << bytes;
    free_buffer(p, bytes);
  }
}

// A container on the allocator keeps its elements as it grows from small
// buffers into large ones and back (shrink_to_fit).
TEST(LargeBuffer, AContainerGrowsThroughTheThreshold) {
  std::vector<std::uint64_t, LargeBufferAllocator<std::uint64_t>> v;
  const std::size_t n = 3 * kLargeBuffer / sizeof(std::uint64_t) + 11;
  for (std::uint64_t i = 0; i < n; ++i)
    v.push_back(i * i);
  for (std::uint64_t i = 0; i < n; ++i)
    ASSERT_EQ(v[i], i * i) << i;
  v.resize(10);
  v.shrink_to_fit();
  for (std::uint64_t i = 0; i < 10; ++i)
    ASSERT_EQ(v[i], i * i) << i;
}

}  // namespace
}  // namespace archfit
