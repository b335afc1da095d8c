// The program's operator new and delete (allocator.cpp).
#pragma once

#include <cstddef>

namespace archfit::cli {

// Whether this build keeps freed blocks in a cache per thread: false under
// the sanitizers, whose own operator new is used.
bool thread_cache_active();

// What the heap grows by, at least, when malloc needs more of it, and keeps
// when it gives memory back: the fix of the bench stream moves the system
// break 12 times instead of 152, and is about 2% faster (bench/JOURNAL.md).
// A step is address space until it is used; what is kept after use stays
// resident, so the step is small (64 MiB kept the krm of a million small
// documents 16 MiB larger; 4 MiB changes no memory shape).
inline constexpr std::size_t kHeapStep = std::size_t{4} << 20;

// Makes malloc grow the heap by kHeapStep (nothing under the sanitizers).
// First thing in main.
void grow_heap_in_large_steps();

}  // namespace archfit::cli
