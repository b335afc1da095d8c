#include <cstdint>
#include <cstdlib>
#include <sys/mman.h>
#include <unistd.h>

#include <archfit/base/large_buffer.hpp>

namespace archfit {

namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;

std::size_t huge_pages_for(std::size_t bytes) {
  return (bytes + kHugePage - 1) / kHugePage * kHugePage;
}

}  // namespace

void prefer_huge_pages(void* data, std::size_t size) {
#ifdef MADV_HUGEPAGE
  static const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  const auto start = reinterpret_cast<std::uintptr_t>(data);
  const std::uintptr_t begin = (start + page - 1) & ~(page - 1);
  const std::uintptr_t end = (start + size) & ~(page - 1);
  if (begin < end) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#else
  (void)data;
  (void)size;
#endif
}

void* allocate_buffer(std::size_t bytes) {
  if (bytes < kLargeBuffer) return ::operator new(bytes);
  // Whole huge pages, aligned to one: each is used whole.
  const std::size_t size = huge_pages_for(bytes);
  void* p = std::aligned_alloc(kHugePage, size);
  if (p == nullptr) throw std::bad_alloc();
  prefer_huge_pages(p, size);
  return p;
}

void free_buffer(void* p, std::size_t bytes) noexcept {
  if (p == nullptr) return;
  if (bytes < kLargeBuffer) {
    ::operator delete(p);
  } else {
    std::free(p);
  }
}

}  // namespace archfit
