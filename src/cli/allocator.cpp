// The program's heap: mimalloc, in the place of malloc and of operator new
// and delete. Measured against the C library's malloc, and against the cache
// per thread over it that archfit had before, in one run of each: as fast on
// `fix`, 5 to 12% faster on `lint` with its reports, for the same memory
// (bench/JOURNAL.md, "mimalloc"). A build links Debian's libmimalloc, whose
// malloc takes the C library's place; a static release, mimalloc's object
// file built from Debian's source package (scripts/lib/release/mimalloc.sh).
// Under the sanitizers their own heap stays, which finds blocks used after
// they are freed. -DARCHFIT_ALLOCATOR=malloc builds the C library's malloc
// alone, to measure against.
//
// operator new and delete are defined here over mimalloc's API rather than
// taken from mimalloc: built as C, its operator new aborts when it finds no
// memory (it cannot throw, and Debian's library never sees the program's new
// handler). These throw std::bad_alloc, as the standard says, so that archfit
// says it is out of memory and what to do (cli/failure.cpp) rather than
// dying of SIGABRT under a memory limit. The static release's mimalloc.o has
// its own made weak, so that these take their place.
#include "cli/allocator.hpp"

#if defined(ARCHFIT_ALLOCATOR_MIMALLOC)
#include <cstddef>
#include <mimalloc.h>
#include <new>

namespace {

void* allocated(void* p) {
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

std::size_t alignment(std::align_val_t a) {
  return static_cast<std::size_t>(a);
}

}  // namespace

void* operator new(std::size_t n) {
  return allocated(mi_malloc(n));
}
void* operator new[](std::size_t n) {
  return allocated(mi_malloc(n));
}
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  return mi_malloc(n);
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
  return mi_malloc(n);
}
void* operator new(std::size_t n, std::align_val_t a) {
  return allocated(mi_malloc_aligned(n, alignment(a)));
}
void* operator new[](std::size_t n, std::align_val_t a) {
  return allocated(mi_malloc_aligned(n, alignment(a)));
}
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return mi_malloc_aligned(n, alignment(a));
}
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return mi_malloc_aligned(n, alignment(a));
}

void operator delete(void* p) noexcept {
  mi_free(p);
}
void operator delete[](void* p) noexcept {
  mi_free(p);
}
void operator delete(void* p, std::size_t n) noexcept {
  mi_free_size(p, n);
}
void operator delete[](void* p, std::size_t n) noexcept {
  mi_free_size(p, n);
}
void operator delete(void* p, const std::nothrow_t&) noexcept {
  mi_free(p);
}
void operator delete[](void* p, const std::nothrow_t&) noexcept {
  mi_free(p);
}
void operator delete(void* p, std::align_val_t a) noexcept {
  mi_free_aligned(p, alignment(a));
}
void operator delete[](void* p, std::align_val_t a) noexcept {
  mi_free_aligned(p, alignment(a));
}
void operator delete(void* p, std::size_t n, std::align_val_t a) noexcept {
  mi_free_size_aligned(p, n, alignment(a));
}
void operator delete[](void* p, std::size_t n, std::align_val_t a) noexcept {
  mi_free_size_aligned(p, n, alignment(a));
}
void operator delete(void* p, std::align_val_t a, const std::nothrow_t&) noexcept {
  mi_free_aligned(p, alignment(a));
}
void operator delete[](void* p, std::align_val_t a, const std::nothrow_t&) noexcept {
  mi_free_aligned(p, alignment(a));
}
#endif

bool archfit::cli::mimalloc_heap() {
#if defined(ARCHFIT_ALLOCATOR_MIMALLOC)
  return true;
#else
  return false;
#endif
}
