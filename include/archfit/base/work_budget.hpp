// What a run may spend on work that grows as the product of two of its
// inputs: pod templates against node pools, spread groups against pools.
// Indexes and remembered answers keep that work small for every input shape
// archfit knows of; the budget makes it linear for every other one, by
// construction: a run may take steps in proportion to the bytes it read, and
// what is left undone when they are spent is reported, never skipped in
// silence (docs/performance.md, "How it scales").
#pragma once

#include <atomic>
#include <cstdint>

namespace archfit {

class WorkBudget {
 public:
  // Steps a run of `bytes` may take: one for every kBytesPerStep bytes, and
  // kLeast at least. A step is one comparison of two things of the input (a
  // template's needs and a pool), weighed by their size, and takes about as
  // long as reading kBytesPerStep / 2 bytes of YAML: what the budget adds to
  // a run is at most half of what reading takes, so that a run over 8 times
  // the input takes at most 12 times as long, whatever the input's shape.
  static constexpr std::uint64_t kBytesPerStep = 2;
  static constexpr std::uint64_t kLeast = std::uint64_t{1} << 16;
  static WorkBudget for_input(std::uint64_t bytes) {
    return WorkBudget(kLeast + bytes / kBytesPerStep);
  }

  explicit WorkBudget(std::uint64_t steps) : left_(steps), total_(steps) {}
  WorkBudget(const WorkBudget& other) : left_(other.left_.load()), total_(other.total_) {}

  // Takes `steps`; false, taking nothing, when fewer are left. Safe from
  // several threads at once.
  bool spend(std::uint64_t steps) {
    std::uint64_t left = left_.load(std::memory_order_relaxed);
    do {
      if (left < steps) {
        left_.store(0, std::memory_order_relaxed);
        return false;
      }
    } while (!left_.compare_exchange_weak(left, left - steps, std::memory_order_relaxed));
    return true;
  }
  bool spent() const { return left_.load(std::memory_order_relaxed) == 0; }
  std::uint64_t total() const { return total_; }

 private:
  std::atomic<std::uint64_t> left_;
  std::uint64_t total_;
};

}  // namespace archfit
