#include <algorithm>
#include <tuple>

#include <archfit/readiness/tally.hpp>

namespace archfit::readiness {

namespace {

// How many of the top blockers the report says rebuilding would free.
constexpr std::size_t kFreedSteps = 3;

std::vector<std::string> united(const std::vector<std::string>& a,
                                const std::vector<std::string>& b) {
  std::vector<std::string> out;
  std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

auto resource_key(const report::ReadinessWorkload& w) {
  return std::tie(w.file, w.resource.kind, w.resource.namespace_name, w.resource.name,
                  w.resource.api_version);
}

}  // namespace

void WorkloadFacts::merge(const WorkloadFacts& other) {
  known = known && other.known;
  for (const On& o : other.on) {
    auto it =
        std::find_if(on.begin(), on.end(), [&o](const On& x) { return x.platform == o.platform; });
    if (it == on.end()) {
      on.push_back(o);
      continue;
    }
    it->missing = united(it->missing, o.missing);
    it->allowed = it->allowed && o.allowed;
  }
}

Tally::Tally(std::vector<std::string> platforms) {
  for (std::string& p : platforms) {
    if (platforms_.try_emplace(p).second) order_.push_back(std::move(p));
  }
}

Tally::Platform& Tally::platform(const std::string& name) {
  return platforms_[name];
}

void Tally::add(const WorkloadFacts& facts) {
  const std::uint64_t replicas = facts.workload.replicas;
  std::lock_guard<std::mutex> lock(mutex_);
  ++all_.workloads;
  all_.replicas += replicas;
  if (!facts.known) {
    ++unknown_;
    return;
  }
  for (const WorkloadFacts::On& on : facts.on) {
    Platform& p = platform(on.platform);
    ++p.all.workloads;
    p.all.replicas += replicas;
    if (on.missing.empty()) {
      if (on.allowed) {
        ++p.runnable.workloads;
        p.runnable.replicas += replicas;
      } else {
        p.pinned.push_back(facts.workload);
      }
      continue;
    }
    for (const std::string& image : on.missing) {
      Blocked& b = p.blockers[image];
      ++b.workloads;
      b.replicas += replicas;
      b.files.insert(facts.workload.file);
    }
    if (on.allowed) {
      Counts& c = p.by_missing[on.missing];
      ++c.workloads;
      c.replicas += replicas;
    }
  }
}

report::Readiness Tally::result() const {
  std::lock_guard<std::mutex> lock(mutex_);
  report::Readiness r;
  r.workloads = all_.workloads;
  r.replicas = all_.replicas;
  r.unknown = unknown_;
  std::vector<std::string> names = order_;
  for (const auto& [name, p] : platforms_) {
    if (std::find(order_.begin(), order_.end(), name) == order_.end()) names.push_back(name);
  }
  for (const std::string& name : names) {
    const Platform& p = platforms_.at(name);
    report::PlatformReadiness out;
    out.platform = name;
    out.workloads = p.all.workloads;
    out.replicas = p.all.replicas;
    out.runnable = p.runnable.workloads;
    out.runnable_replicas = p.runnable.replicas;
    for (const auto& [image, b] : p.blockers) {
      out.blockers.push_back(
          report::Blocker{image, b.workloads, b.replicas,
                          std::vector<std::string>(b.files.begin(), b.files.end())});
    }
    std::stable_sort(out.blockers.begin(), out.blockers.end(),
                     [](const report::Blocker& a, const report::Blocker& b) {
                       return std::tie(b.workloads, b.replicas) < std::tie(a.workloads, a.replicas);
                     });
    out.pinned = p.pinned;
    std::sort(out.pinned.begin(), out.pinned.end(),
              [](const auto& a, const auto& b) { return resource_key(a) < resource_key(b); });
    // What rebuilding the first k blockers frees: the workloads every image
    // of which that blocks them is among those k.
    std::vector<std::string> top;
    for (std::size_t k = 0; k < out.blockers.size() && k < kFreedSteps; ++k) {
      top.push_back(out.blockers[k].image);
      std::sort(top.begin(), top.end());
      report::Freed freed{k + 1, 0, 0};
      for (const auto& [missing, c] : p.by_missing) {
        if (std::includes(top.begin(), top.end(), missing.begin(), missing.end())) {
          freed.workloads += c.workloads;
          freed.replicas += c.replicas;
        }
      }
      out.freed.push_back(freed);
    }
    r.platforms.push_back(std::move(out));
  }
  return r;
}

}  // namespace archfit::readiness
