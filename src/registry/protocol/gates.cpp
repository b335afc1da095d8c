#include "registry/protocol/gates.hpp"

#include <algorithm>

namespace archfit::registry {

HostGates::HostGates(std::size_t narrow, std::size_t wide)
    : narrow_(std::max<std::size_t>(narrow, 1)), wide_(std::max(wide, narrow_)) {}

HostGates::Slot HostGates::enter(const std::string& host) {
  std::unique_lock<std::mutex> hold(mutex_);
  Gate& gate = gates_[host];
  changed_.wait(hold, [&] { return gate.in_flight < (gate.wide ? wide_ : narrow_); });
  gate.most = std::max(gate.most, ++gate.in_flight);
  return Slot(*this, host);
}

void HostGates::leave(const std::string& host) {
  {
    std::lock_guard<std::mutex> hold(mutex_);
    --gates_[host].in_flight;
  }
  changed_.notify_all();
}

void HostGates::widen(const std::string& host) {
  {
    std::lock_guard<std::mutex> hold(mutex_);
    Gate& gate = gates_[host];
    if (gate.wide) return;
    gate.wide = true;
  }
  changed_.notify_all();
}

std::size_t HostGates::most_in_flight(const std::string& host) const {
  std::lock_guard<std::mutex> hold(mutex_);
  auto it = gates_.find(host);
  return it == gates_.end() ? 0 : it->second.most;
}

}  // namespace archfit::registry
