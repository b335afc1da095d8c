// How many requests may be in flight to one host at once (docs/registry.md,
// "Connections"): `narrow` while the host has answered over HTTP/1.1 only,
// where each request in flight holds a connection of its own, and `wide`
// once it answered over HTTP/2, where requests are streams sharing a
// connection. Unknown hosts start narrow.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <map>
#include <mutex>
#include <string>

namespace archfit::registry {

class HostGates {
 public:
  HostGates(std::size_t narrow, std::size_t wide);
  HostGates(const HostGates&) = delete;
  HostGates& operator=(const HostGates&) = delete;

  // One request in flight to a host, given back when it ends.
  class Slot {
   public:
    Slot(HostGates& gates, const std::string& host) : gates_(gates), host_(host) {}
    ~Slot() { gates_.leave(host_); }
    Slot(const Slot&) = delete;
    Slot& operator=(const Slot&) = delete;

   private:
    HostGates& gates_;
    const std::string& host_;
  };

  // Waits until `host` may take one more request; `host` must outlive the slot.
  [[nodiscard]] Slot enter(const std::string& host);
  // `host` answered over a multiplexed connection: from now on it takes `wide`.
  void widen(const std::string& host);

  // For tests: the most requests `host` had in flight at once.
  std::size_t most_in_flight(const std::string& host) const;

 private:
  struct Gate {
    std::size_t in_flight = 0;
    std::size_t most = 0;
    bool wide = false;
  };
  void leave(const std::string& host);

  const std::size_t narrow_;
  const std::size_t wide_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::map<std::string, Gate> gates_;
};

}  // namespace archfit::registry
