#include "run/helper_threads.hpp"

#include <archfit/base/threads.hpp>

namespace archfit::run {

HelperThreads::HelperThreads(std::size_t count) {
  threads_.reserve(count);
  // Fewer threads than asked for when the system gives no more: the
  // caller's work is shared among those there are.
  for (std::size_t i = 0; i < count; ++i) {
    std::thread t = try_thread([this] { serve(); });
    if (!t.joinable()) break;
    threads_.push_back(std::move(t));
  }
}

HelperThreads::~HelperThreads() {
  {
    std::lock_guard lock(mutex_);
    ending_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : threads_)
    t.join();
}

void HelperThreads::start(std::size_t count, const std::function<void()>& job) {
  {
    std::lock_guard lock(mutex_);
    job_ = &job;
    ++round_;
    wanted_ = std::min(count, threads_.size());
    taken_ = 0;
    done_ = 0;
  }
  wake_.notify_all();
}

void HelperThreads::finish() {
  std::unique_lock lock(mutex_);
  finished_.wait(lock, [this] { return done_ == wanted_; });
  job_ = nullptr;
  wanted_ = 0;
}

void HelperThreads::serve() {
  std::unique_lock lock(mutex_);
  std::size_t served = 0;  // the last round this thread ran the job of
  for (;;) {
    // Once per round: a thread that is quick does not take a second share.
    wake_.wait(lock, [&] { return ending_ || (served != round_ && taken_ < wanted_); });
    if (ending_) return;
    served = round_;
    ++taken_;
    const std::function<void()>& job = *job_;
    lock.unlock();
    job();
    lock.lock();
    if (++done_ == wanted_) finished_.notify_all();
  }
}

}  // namespace archfit::run
