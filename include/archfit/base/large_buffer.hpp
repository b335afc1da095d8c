// Memory for large buffers that live for the whole run.
//
// A fresh buffer is first written through the kernel's page faults, one for
// every 4 KiB page; asked for huge pages, the kernel takes one fault for
// every 2 MiB (where the system allows it: the hint is ignored otherwise).
// A run that changes every document of a large stream keeps the new text
// and its list of ranges until it writes them: many MiB written once
// (bench/JOURNAL.md).
#pragma once

#include <cstddef>
#include <new>

namespace archfit {

// Asks for huge pages for the whole pages of [data, data + size). A hint.
void prefer_huge_pages(void* data, std::size_t size);

// Below this size a buffer comes from operator new as usual.
inline constexpr std::size_t kLargeBuffer = std::size_t{1} << 20;

// `bytes` of memory, aligned for any object; from whole huge pages where
// `bytes` is at least kLargeBuffer. Throws std::bad_alloc.
void* allocate_buffer(std::size_t bytes);
// Gives back what allocate_buffer(bytes) gave, with the same `bytes`.
void free_buffer(void* p, std::size_t bytes) noexcept;

// A standard allocator on allocate_buffer: for containers that may grow large.
template <class T>
struct LargeBufferAllocator {
  using value_type = T;
  LargeBufferAllocator() = default;
  template <class U>
  LargeBufferAllocator(const LargeBufferAllocator<U>&) noexcept {}
  T* allocate(std::size_t n) {
    if (n > static_cast<std::size_t>(-1) / sizeof(T)) throw std::bad_array_new_length();
    return static_cast<T*>(allocate_buffer(n * sizeof(T)));
  }
  void deallocate(T* p, std::size_t n) noexcept { free_buffer(p, n * sizeof(T)); }
  template <class U>
  bool operator==(const LargeBufferAllocator<U>&) const noexcept {
    return true;
  }
};

}  // namespace archfit
