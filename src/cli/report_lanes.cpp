#include "cli/report_lanes.hpp"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>

#include <archfit/base/threads.hpp>

namespace archfit::cli {

namespace {

// Events held before they go to the writers' threads: enough that handing
// them over costs little beside writing them, few enough to hold no memory.
constexpr std::size_t kBatch = 512;
// Batches waiting for a writer, at most: what it may lag behind the run.
constexpr std::size_t kWaiting = 4;

}  // namespace

// One writer's thread and the batches waiting for it. A failure stops the
// writer (later batches are passed over, so the run never waits on it) and
// is thrown to the run by the next hand-over, or by close(). Without a thread
// to be had, the run's own thread writes each batch as it comes.
class ReportLanes::Lane {
 public:
  explicit Lane(report::Writer& writer) : writer_(writer), thread_(try_thread([this] { run(); })) {}
  ~Lane() { stop(); }
  Lane(const Lane&) = delete;
  Lane& operator=(const Lane&) = delete;

  void push(std::shared_ptr<const Batch> batch) {
    if (!thread_.joinable()) return write(*batch);
    std::unique_lock lock(mutex_);
    room_.wait(lock, [this] { return queue_.size() < kWaiting; });
    queue_.push_back(std::move(batch));
    ready_.notify_one();
  }

  void rethrow_failure() const {
    if (failed_.load(std::memory_order_acquire)) std::rethrow_exception(failure_);
  }

  void close() {
    stop();
    rethrow_failure();
  }

 private:
  void stop() {
    {
      std::lock_guard lock(mutex_);
      closed_ = true;
    }
    ready_.notify_one();
    if (thread_.joinable()) thread_.join();
  }

  void run() {
    for (;;) {
      std::shared_ptr<const Batch> batch;
      {
        std::unique_lock lock(mutex_);
        ready_.wait(lock, [this] { return !queue_.empty() || closed_; });
        if (queue_.empty()) return;
        batch = std::move(queue_.front());
        queue_.pop_front();
      }
      room_.notify_one();
      write(*batch);
    }
  }

  void write(const Batch& batch) {
    if (failed_.load(std::memory_order_relaxed)) return;
    try {
      for (const ReportEvent& e : batch)
        write_event(writer_, e);
    } catch (...) {
      failure_ = std::current_exception();
      failed_.store(true, std::memory_order_release);
    }
  }

  report::Writer& writer_;
  std::mutex mutex_;
  std::condition_variable ready_;
  std::condition_variable room_;
  std::deque<std::shared_ptr<const Batch>> queue_;
  bool closed_ = false;
  std::exception_ptr failure_;
  std::atomic<bool> failed_{false};
  std::thread thread_;  // last: it starts once the rest is made
};

void write_event(report::Writer& writer, const ReportEvent& e) {
  if (const auto* f = std::get_if<findings::Finding>(&e)) {
    writer.add(*f);
  } else if (const auto* w = std::get_if<report::WorkloadSeen>(&e)) {
    writer.add_workload(*w);
  } else {
    writer.add_diff(std::get<ReportDiff>(e).text);
  }
}

bool writes_beside_the_run(unsigned cores) {
  return cores > kCoresTheRunWritesOn;
}

ReportLanes::ReportLanes(const std::vector<report::Writer*>& writers) {
  for (report::Writer* w : writers)
    lanes_.push_back(std::make_unique<Lane>(*w));
  held_.reserve(kBatch);
}

ReportLanes::~ReportLanes() = default;

void ReportLanes::add(ReportEvent event) {
  held_.push_back(std::move(event));
  if (held_.size() >= kBatch) hand_over();
}

void ReportLanes::hand_over() {
  if (held_.empty()) return;
  auto batch = std::make_shared<const Batch>(std::move(held_));
  held_.clear();
  held_.reserve(kBatch);
  for (const auto& lane : lanes_) {
    lane->rethrow_failure();
    lane->push(batch);
  }
}

void ReportLanes::close() {
  hand_over();
  for (const auto& lane : lanes_)
    lane->close();
}

}  // namespace archfit::cli
