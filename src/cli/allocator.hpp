// The program's operator new and delete (allocator.cpp).
#pragma once

namespace archfit::cli {

// Whether this build keeps freed blocks in a cache per thread: false under
// the sanitizers, whose own operator new is used.
bool thread_cache_active();

}  // namespace archfit::cli
