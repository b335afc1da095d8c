// The program's heap (allocator.cpp).
#pragma once

namespace archfit::cli {

// Whether mimalloc is the heap of this build: false under the sanitizers,
// whose own heap is used, and with -DARCHFIT_ALLOCATOR=malloc.
bool mimalloc_heap();

}  // namespace archfit::cli
