#include "resolve/progress.hpp"

#include <cmath>
#include <string>

#include <archfit/base/threads.hpp>

namespace archfit::resolve {

ProgressLine::ProgressLine(std::ostream* out, std::size_t total, std::chrono::milliseconds delay,
                           bool log_lines, std::chrono::milliseconds interval)
    : out_(out), total_(total), delay_(delay), log_lines_(log_lines), interval_(interval) {
  if (out_ == nullptr || !log_lines_ || total_ == 0) return;
  // Without a thread to be had, the run goes on without these lines.
  ticker_ = try_thread([this] {
    std::unique_lock<std::mutex> hold(mutex_);
    while (!wake_.wait_for(hold, interval_, [this] { return stop_; })) {
      auto seconds = std::chrono::duration_cast<std::chrono::seconds>(Clock::now() - start_);
      *out_ << "archfit: resolving images: " << done_ << " of " << total_ << " done after "
            << seconds.count() << "s\n"
            << std::flush;
    }
  });
}

ProgressLine::~ProgressLine() {
  if (ticker_.joinable()) {
    {
      std::lock_guard<std::mutex> hold(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    ticker_.join();
  }
  if (shown_ && out_ != nullptr) *out_ << "\r\033[K" << std::flush;
}

void ProgressLine::step() {
  if (out_ == nullptr) return;
  std::lock_guard<std::mutex> hold(mutex_);
  ++done_;
  if (log_lines_) return;
  Clock::time_point now = Clock::now();
  if (now - start_ < delay_) return;
  if (shown_ && now - last_draw_ < std::chrono::milliseconds(100) && done_ < total_) return;
  draw(now);
}

void ProgressLine::draw(Clock::time_point now) {
  double seconds = std::chrono::duration<double>(now - start_).count();
  double rate = seconds > 0 ? static_cast<double>(done_) / seconds : 0;
  std::string line = "resolving images: " + std::to_string(done_) + "/" + std::to_string(total_);
  line += ", " + std::to_string(static_cast<long long>(std::lround(rate))) + "/s";
  if (rate > 0 && done_ < total_) {
    long long left = std::llround(static_cast<double>(total_ - done_) / rate);
    line += ", about " + std::to_string(left) + "s left";
  }
  *out_ << "\r\033[K" << line << std::flush;
  shown_ = true;
  last_draw_ = now;
}

}  // namespace archfit::resolve
