// Runs f(0) .. f(n-1) on up to `threads` threads (the caller's among them)
// and returns when all are done. f must not throw; indexes are handed out in
// order, one at a time, so uneven items balance out. Threads the system does
// not give leave their share to the others, the caller's at least.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

#include <archfit/base/threads.hpp>

namespace archfit {

template <class F>
void parallel_for(std::size_t n, unsigned threads, F&& f) {
  std::size_t helpers = std::min<std::size_t>(threads, n);
  if (helpers <= 1) {
    for (std::size_t i = 0; i < n; ++i)
      f(i);
    return;
  }
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i; (i = next.fetch_add(1, std::memory_order_relaxed)) < n;)
      f(i);
  };
  std::vector<std::jthread> pool;
  pool.reserve(helpers - 1);
  for (std::size_t t = 1; t < helpers; ++t) {
    std::jthread helper = try_thread<std::jthread>(work);
    if (!helper.joinable()) break;
    pool.push_back(std::move(helper));
  }
  work();
}

}  // namespace archfit
