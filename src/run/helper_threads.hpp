// Threads that stay for a whole run and, round after round, run that round's
// job beside the thread that asks (the pipeline's windows, src/run/pipeline.cpp).
// Starting threads for every window cost their start and join, and every new
// thread came with empty allocator caches and none of the spare tree arrays
// its predecessor had gathered (src/yaml/tree_storage.cpp).
#pragma once

#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace archfit::run {

class HelperThreads {
 public:
  explicit HelperThreads(std::size_t count);
  ~HelperThreads();
  HelperThreads(const HelperThreads&) = delete;
  HelperThreads& operator=(const HelperThreads&) = delete;

  std::size_t size() const { return threads_.size(); }

  // Runs `job` on `count` of the threads (at most size()); returns at once.
  // `job` must not throw. Call finish() before the next start().
  void start(std::size_t count, const std::function<void()>& job);
  // Waits until every thread given this round's job has run it.
  void finish();

 private:
  void serve();

  std::mutex mutex_;
  std::condition_variable wake_;      // a round started, or the threads are to end
  std::condition_variable finished_;  // a thread finished the round's job
  const std::function<void()>* job_ = nullptr;
  std::size_t round_ = 0;   // rounds started
  std::size_t wanted_ = 0;  // threads to run this round's job
  std::size_t taken_ = 0;   // of those, how many took it
  std::size_t done_ = 0;    // and finished it
  bool ending_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace archfit::run
