// The program's operator new and delete: malloc, behind a deeper cache per
// thread for blocks of up to 1 KiB.
//
// A fix makes and drops trees of small values for every pod template (the
// plan, its draft, the editor's view) and every document (findings, edits).
// glibc keeps seven freed blocks of a size in its own per-thread cache;
// dropping a tree sends the rest to its shared bins, and the next tree takes
// them back one slow call at a time. Here each thread keeps up to kDepth
// freed blocks of each size class and hands them out first (fix of the bench
// stream 5 to 8% faster; bench/JOURNAL.md). A block goes back to malloc
// when its class is full, and every block a thread holds when it ends.
//
// A request for n bytes is of class c = max(2, (n + 23) / 16), and a block of
// class c holds 16c - 8 bytes at least: the cache hands out one kept in that
// class, or asks malloc for 16c - 8 bytes (exactly what glibc's chunks of
// 16-byte steps with 8 bytes of header give n anyway). A block freed with
// its size (sized delete, what the compiler and the containers call) goes
// back to the class of that size without asking malloc anything; one freed
// without it is kept only when malloc_usable_size says exactly 16c - 8. So
// every block handed out is large enough whatever the malloc.
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

#if defined(ARCHFIT_ALLOCATOR_MIMALLOC) && !defined(ARCHFIT_OWN_SANITIZER_HEAP)
// -DARCHFIT_ALLOCATOR=mimalloc: mimalloc's heap for malloc and operator new
// alike (linked in, so it takes malloc's place), for measuring against the
// cache (bench/JOURNAL.md, "mimalloc"). Its object file for a static
// release defines operator new and delete itself; with the shared library
// they are mimalloc's here.
#ifndef ARCHFIT_MIMALLOC_OBJECT
#include <mimalloc-new-delete.h>
#endif

bool archfit::cli::thread_cache_active() {
  return false;
}

void archfit::cli::grow_heap_in_large_steps() {}

#elif defined(ARCHFIT_ALLOCATOR_MALLOC) && !defined(ARCHFIT_OWN_SANITIZER_HEAP)
// -DARCHFIT_ALLOCATOR=malloc: the C library's malloc alone, for measuring.
bool archfit::cli::thread_cache_active() {
  return false;
}

void archfit::cli::grow_heap_in_large_steps() {
  mallopt(M_TOP_PAD, static_cast<int>(archfit::cli::kHeapStep));
}

#elif !defined(ARCHFIT_OWN_SANITIZER_HEAP)
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

// Keeps `p`, a block of class `c` (at least 16c - 8 bytes usable), in the
// thread's cache when there is room; else gives it back to malloc.
void keep(void* p, std::size_t c) noexcept {
  if (c < kClasses && !cache.closed) {
    unsigned& count = cache.count[c];
    if (count < kDepth) {
      if (count == 0) static_cast<void>(&guard);  // made at the thread's first keep
      cache.block[c][count++] = p;
      return;
    }
  }
  std::free(p);
}

}  // namespace

void* operator new(std::size_t n) {
  const std::size_t c = class_for_request(n);
  // A block of a class is asked of malloc at the class's full size, so any
  // block of the class, however it came back, serves any request of it.
  std::size_t ask = n != 0 ? n : 1;  // a unique block even for nothing
  if (c < kClasses) {
    if (cache.count[c] != 0) return cache.block[c][--cache.count[c]];
    ask = 16 * c - 8;
  }
  void* p = std::malloc(ask);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

// The size a block was asked for names its class: no need to ask malloc.
void operator delete(void* p, std::size_t n) noexcept {
  if (p == nullptr) return;
  keep(p, class_for_request(n));
}

// Without the size, malloc says how much of the block is usable: kept only
// when that is exactly a class's size.
void operator delete(void* p) noexcept {
  if (p == nullptr) return;
  const std::size_t usable = malloc_usable_size(p);
  if ((usable + 8) % 16 != 0) return std::free(p);
  keep(p, (usable + 8) / 16);
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
