// The platforms an image is published for, or the platforms a cluster has: a sorted set
// of normalized platforms. Placement starts from the cluster's set and keeps the hosts
// that every image of a pod template runs on (filter_runnable_on).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <archfit/image/match.hpp>
#include <archfit/image/platform.hpp>

namespace archfit::image {

// Members are normalized and carry no os_version: a set answers "which kubernetes.io/os
// and kubernetes.io/arch can this use", and the lock file stores os/arch[/variant] only,
// so a set read from the lock equals the set resolved from the registry. Order is by
// (os, architecture, variant).
class PlatformSet {
 public:
  using const_iterator = std::vector<Platform>::const_iterator;

  PlatformSet() = default;
  explicit PlatformSet(std::vector<Platform> platforms);

  // "linux/amd64,linux/arm64"; blanks around entries are ignored, an empty or blank text
  // is the empty set, an empty entry ("a,,b") is an error. Throws Error(ErrorKind::Input).
  static PlatformSet parse(std::string_view csv);

  // False when the platform was already there.
  bool insert(const Platform& platform);
  // Exact membership after normalization: "linux/aarch64" is in {linux/arm64}, but
  // linux/arm/v6 is not in {linux/arm/v7} (use runs_on for that).
  bool contains(const Platform& platform) const;

  // Some member can run on host.
  bool runs_on(const Platform& host, MatchPolicy policy = MatchPolicy::SameArchitecture) const;
  // The members of hosts on which this set (an image's platforms) can run.
  PlatformSet filter_runnable_on(const PlatformSet& hosts,
                                 MatchPolicy policy = MatchPolicy::SameArchitecture) const;
  // Members of both, compared exactly after normalization.
  PlatformSet intersect(const PlatformSet& other) const;

  std::vector<std::string> archs() const;  // sorted, distinct
  std::vector<std::string> oses() const;   // sorted, distinct
  std::vector<std::string> strs() const;   // each member's str(), in set order
  std::string str() const;                 // strs() joined with ','; "" when empty

  bool empty() const { return items_.empty(); }
  std::size_t size() const { return items_.size(); }
  const_iterator begin() const { return items_.begin(); }
  const_iterator end() const { return items_.end(); }

  friend bool operator==(const PlatformSet&, const PlatformSet&) = default;

 private:
  std::vector<Platform> items_;
};

}  // namespace archfit::image
