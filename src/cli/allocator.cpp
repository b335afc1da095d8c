// The program's operator new and delete: malloc, behind a deeper cache per
// thread for blocks of up to 1 KiB.
//
// A fix makes and drops trees of small values for every pod template (the
// plan, its draft, the editor's view) and every document (findings, edits).
// glibc keeps seven freed blocks of a size in its own per-thread cache;
// dropping a tree sends the rest to its shared bins, and the next tree takes
// them back one slow call at a time. Here each thread keeps up to kDepth
// freed blocks of each size class and hands them out first (fix of the bench
// stream 5 to 8% faster; docs/performance.md). A block goes back to malloc
// when its class is full, and every block a thread holds when it ends.
//
// The classes follow malloc_usable_size: a freed block is kept in class c
// only when exactly 16c - 8 bytes of it are usable, and a request for n bytes
// takes from class max(2, (n + 23) / 16), whose blocks hold at least n. So
// every block handed out is large enough whatever the malloc; glibc's chunks
// (16-byte steps, 8 bytes of header) are the ones that fill the classes.
//
// Not under the sanitizers, whose own operator new finds blocks used after
// they are freed; the aligned forms stay the library's.
#include "cli/allocator.hpp"

#include <algorithm>
#include <cstdlib>
#include <malloc.h>
#include <new>

#if defined(__SANITIZE_ADDRESS__)
#define ARCHFIT_OWN_SANITIZER_HEAP 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer) || \
    __has_feature(thread_sanitizer)
#define ARCHFIT_OWN_SANITIZER_HEAP 1
#endif
#endif

#ifndef ARCHFIT_OWN_SANITIZER_HEAP
namespace {

constexpr std::size_t kClasses = 65;  // usable sizes 8, 24, ... 1016
constexpr unsigned kDepth = 128;

// Trivial, so that it stays usable to the thread's very end, after the
// guard below has emptied it.
struct Cache {
  void* block[kClasses][kDepth];
  unsigned count[kClasses];
  bool closed;
};
thread_local Cache cache;

// Empties the thread's cache when the thread ends; from then on blocks go
// straight to malloc and free.
struct Guard {
  ~Guard() {
    cache.closed = true;
    for (std::size_t c = 0; c < kClasses; ++c) {
      while (cache.count[c] != 0)
        std::free(cache.block[c][--cache.count[c]]);
    }
  }
};
thread_local Guard guard;

// kClasses for a request no class holds (a size near SIZE_MAX included,
// where n + 23 would wrap round to a small class).
std::size_t class_for_request(std::size_t n) {
  if (n > 16 * kClasses) return kClasses;
  return std::max<std::size_t>(2, (n + 23) / 16);
}

}  // namespace

void* operator new(std::size_t n) {
  const std::size_t c = class_for_request(n);
  if (c < kClasses && cache.count[c] != 0) return cache.block[c][--cache.count[c]];
  void* p = std::malloc(n != 0 ? n : 1);  // a unique block even for nothing
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

void operator delete(void* p) noexcept {
  if (p == nullptr) return;
  const std::size_t usable = malloc_usable_size(p);
  const std::size_t c = (usable + 8) / 16;
  if ((usable + 8) % 16 == 0 && c < kClasses && !cache.closed) {
    unsigned& count = cache.count[c];
    if (count < kDepth) {
      if (count == 0) static_cast<void>(&guard);  // made at the thread's first keep
      cache.block[c][count++] = p;
      return;
    }
  }
  std::free(p);
}

void operator delete(void* p, std::size_t) noexcept {
  operator delete(p);
}

bool archfit::cli::thread_cache_active() {
  return true;
}

void archfit::cli::grow_heap_in_large_steps() {
  mallopt(M_TOP_PAD, static_cast<int>(kHeapStep));
}
#else
bool archfit::cli::thread_cache_active() {
  return false;
}

void archfit::cli::grow_heap_in_large_steps() {}
#endif
