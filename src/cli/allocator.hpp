// The program's operator new and delete (allocator.cpp).
#pragma once

#include <cstddef>

namespace archfit::cli {

// Whether this build keeps freed blocks in a cache per thread: false under
// the sanitizers, whose own operator new is used.
bool thread_cache_active();

// What the heap grows by, at least, when malloc needs more of it, and keeps
// when it gives memory back: the fix of the bench stream moves the system
// break 7 times instead of 152, and is about 2% faster (docs/performance.md).
// Address space only: a page is resident once it is used, as before.
inline constexpr std::size_t kHeapStep = std::size_t{64} << 20;

// Makes malloc grow the heap by kHeapStep (nothing under the sanitizers).
// First thing in main.
void grow_heap_in_large_steps();

}  // namespace archfit::cli
