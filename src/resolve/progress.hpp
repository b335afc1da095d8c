// The progress line of a long resolution on a terminal:
//   resolving images: 120/300, 45/s, about 4s left
// It appears only once a run has taken longer than the delay, is redrawn at
// most ten times a second, and is erased when the run ends. For a log (CI),
// a whole line every interval instead, written by a thread of its own so
// that a registry that does not answer still shows that time passes:
//   archfit: resolving images: 120 of 300 done after 10s

#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <ostream>
#include <thread>

namespace archfit::resolve {

class ProgressLine {
 public:
  ProgressLine(std::ostream* out, std::size_t total, std::chrono::milliseconds delay,
               bool log_lines = false,
               std::chrono::milliseconds interval = std::chrono::milliseconds(5000));
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  // One more image done. Safe from several threads.
  void step();

 private:
  using Clock = std::chrono::steady_clock;
  void draw(Clock::time_point now);

  std::ostream* out_;
  std::size_t total_;
  std::chrono::milliseconds delay_;
  Clock::time_point start_ = Clock::now();
  Clock::time_point last_draw_{};
  std::size_t done_ = 0;
  bool shown_ = false;
  std::mutex mutex_;
  // Log lines.
  bool log_lines_ = false;
  std::chrono::milliseconds interval_;
  bool stop_ = false;
  std::condition_variable wake_;
  std::thread ticker_;
};

}  // namespace archfit::resolve
