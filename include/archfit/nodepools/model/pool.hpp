// A node pool: a set of nodes that share labels, the values their label keys
// may take, and taints. Karpenter NodePools and Provisioners describe the
// nodes Karpenter may launch (requirements narrow well-known labels; a label
// no requirement or template label defines is not on their nodes); eksctl
// node groups and pools declared in .archfit.yaml are fixed sets of nodes
// (their labels, plus the well-known ones their instance types give).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <archfit/base/key_index.hpp>
#include <archfit/nodepools/model/labels.hpp>
#include <archfit/nodepools/model/requirement.hpp>
#include <archfit/yaml/path.hpp>

namespace archfit::nodepools {

inline constexpr const char* kArchLabel = "kubernetes.io/arch";

struct Taint {
  std::string key;
  std::string value;
  std::string effect;  // NoSchedule | PreferNoSchedule | NoExecute

  friend bool operator==(const Taint&, const Taint&) = default;
};

// "key=value:Effect", or "key:Effect" without a value.
std::string describe(const Taint& t);

enum class PoolSource { NodePool, Provisioner, NodeGroup, Declared };

// "NodePool", "Provisioner", "node group", "declared pool"
std::string_view source_name(PoolSource source);

// The architectures Linux nodes report in kubernetes.io/arch.
inline const std::set<std::string> kNodeArchs = {"amd64", "arm64", "ppc64le", "s390x",
                                                 "386",   "arm",   "riscv64"};

struct Pool {
  std::string name;
  PoolSource source = PoolSource::NodePool;
  // Where it is written: the object (or node group) in a manifest, or the
  // entry of nodePools.pools in a configuration file.
  std::string file;
  std::uint32_t document = 0;
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  std::string api_version;  // of the object; "" for declared pools
  std::string kind;
  yaml::Path path;  // of the pool in its document: none, or managedNodeGroups[1]

  std::vector<std::pair<std::string, std::string>> labels;
  std::vector<Requirement> requirements;
  std::vector<Taint> taints;
  std::vector<Taint> startup_taints;  // Karpenter's: pods need not tolerate them
  std::optional<std::int64_t> weight;
  // Node groups: their instance types, and the architectures of those archfit
  // knows (instance_archs) or was told (nodePools.instanceArchs); types it
  // knows nothing of are in unknown_types.
  std::vector<std::string> instance_types;
  std::set<std::string> instance_archs;
  std::vector<std::string> unknown_types;
  std::optional<std::string> os;  // a node group's operating system, when its AMI says
  // A declared pool's own word on which of the well-known labels its nodes
  // carry (wellKnownLabels); unset: every one a node group's nodes carry.
  std::optional<std::set<std::string>> well_known;

  bool karpenter() const {
    return source == PoolSource::NodePool || source == PoolSource::Provisioner;
  }
  // A label or requirement of the pool names the key (aliases normalized).
  bool defines(std::string_view key) const;
  // The values the key can take on the pool's nodes (aliases normalized).
  Domain domain(std::string_view key) const;
  // What the key is on the pool's nodes when the pool says nothing of it.
  LabelKind label_kind(std::string_view key) const;
  // The architectures its nodes can have, among `cluster`.
  std::set<std::string> archs(const std::set<std::string>& cluster) const;
  // ... among every architecture Linux nodes report (kNodeArchs).
  std::set<std::string> archs() const;
  // "NodePool \"arm\" (pools.yaml:3)"
  std::string title() const;
};

// A pool's labels and requirements read once, by key: what Pool::defines and
// Pool::domain answer with a scan of them, in constant time, for checking
// many templates against a pool of many labels. The pool must outlive it and
// stay as it is.
class PoolKeys {
 public:
  explicit PoolKeys(const Pool& pool);
  const Pool& pool() const { return *pool_; }
  bool defines(std::string_view key) const;
  Domain domain(std::string_view key) const;
  // Pool::archs().
  std::set<std::string> archs() const;
  // The domains of the keys the pool defines, by normalized key.
  const std::unordered_map<std::string, Domain, KeyedHash, std::equal_to<>>& defined() const {
    return defined_;
  }

 private:
  const Pool* pool_;
  std::unordered_map<std::string, Domain, KeyedHash, std::equal_to<>> defined_;
  std::optional<std::set<std::string>> instance_archs_;
};

}  // namespace archfit::nodepools
