// Counting workloads into the readiness report (report/readiness.hpp): each
// workload says, for each platform of its cluster, which of its images have
// no build for it and whether its own constraints let it go there. The tally
// adds them up in any order (documents are analysed on several threads) and
// gives the same report whatever the order.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include <archfit/report/readiness.hpp>

namespace archfit::readiness {

struct WorkloadFacts {
  report::ReadinessWorkload workload;
  // Its images were all resolved and its placement read: otherwise it is
  // counted as not counted, and `on` is not looked at.
  bool known = true;
  struct On {
    std::string platform;
    std::vector<std::string> missing;  // images without a build for it, canonical, sorted, distinct
    bool allowed = true;               // the workload's own constraints let it go there
  };
  std::vector<On> on;  // the platforms of its cluster

  // A workload of several pod templates (a CronJob's is one; an Argo
  // Rollout's too) runs where all of them do: `other` ANDed in.
  void merge(const WorkloadFacts& other);
};

class Tally {
 public:
  // The platforms in the order the report lists them (the clusterPlatforms
  // of the run's configurations, first seen first); others a workload names
  // come after, by name.
  explicit Tally(std::vector<std::string> platforms = {});

  // Thread-safe.
  void add(const WorkloadFacts& facts);
  report::Readiness result() const;

 private:
  struct Blocked {
    std::size_t workloads = 0;
    std::uint64_t replicas = 0;
    std::set<std::string> files;
  };
  struct Counts {
    std::size_t workloads = 0;
    std::uint64_t replicas = 0;
  };
  struct Platform {
    Counts all, runnable;
    std::map<std::string, Blocked> blockers;  // by image
    std::vector<report::ReadinessWorkload> pinned;
    // Blocked workloads their constraints would let here, by the images
    // that block them: what rebuilding some images frees.
    std::map<std::vector<std::string>, Counts> by_missing;
  };
  Platform& platform(const std::string& name);

  mutable std::mutex mutex_;
  std::vector<std::string> order_;
  std::map<std::string, Platform> platforms_;
  Counts all_;
  std::size_t unknown_ = 0;
};

}  // namespace archfit::readiness
