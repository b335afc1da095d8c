// Internals of weighted spread by splitting, shared by src/spread/*.cpp:
// the record a piece carries, and the plan of a Deployment's split.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <archfit/manifest/workload.hpp>
#include <archfit/spread/model/strategy.hpp>
#include <archfit/spread/spread.hpp>
#include <archfit/yaml/node.hpp>

namespace archfit::spread::detail {

// The record of a piece, as its annotation (archfit.io/split) writes it.
struct Record {
  std::size_t piece = 0;  // 1-based
  std::size_t pieces = 0;
  std::string name;
  std::string replicas;  // as written; "-" when there was none
  std::string key;       // the group's node label, added to the nodeSelector
  bool created_node_selector = false;
  bool created_annotations = false;

  // The annotation's text, and back; nullopt for text that is not a record.
  std::string str() const;
  static std::optional<Record> parse(std::string_view text);
};

// The record a Deployment carries; nullopt when it is not a piece.
std::optional<Record> record_of(yaml::NodeRef root);

// What a Deployment's spread asks for and where it was said.
struct Spec {
  std::vector<spread::StrategyGroup> groups;
  std::string origin;
  std::string invalid;                             // the annotation does not read
  const spread::SpreadProfile* profile = nullptr;  // archfit's own spread
  bool webhook = false;  // a spreading webhook reads it too (annotation, PodDistributor)
};

// One Deployment of a split: its name, its group and its replicas. The group
// is a copy: a plan is copied and moved, and must not point into another.
struct Piece {
  std::string name;
  spread::StrategyGroup group;
  std::uint32_t replicas = 0;
};

// What fix does with a workload's spread (spec: none when it has none).
struct Plan {
  std::optional<Spec> spec;
  std::string refused;  // why the Deployment is not split
  std::vector<std::string> excluded;
  std::vector<Piece> pieces;  // none when refused
  std::uint32_t replicas = 0;
  // A topology spread profile's: what placement writes instead of pieces.
  std::optional<spread::TopologySpread> topology;
};

// What a topology spread profile gives every workload it applies to, or why
// nothing (SpreadWorld::topologies).
SpreadWorld::Topology prepare_topology(const spread::SpreadProfile& profile,
                                       const SpreadWorld& world);

// What fix does with a workload: nothing (no spread), refuse (why), or the
// pieces; `archs` gives the architectures its images run on. For a topology
// spread profile, `topology` asks for Plan::topology (otherwise only whether
// it is refused).
Plan plan_of(const manifest::Workload& w, const SpreadWorld& world, const ArchLookup& archs,
             bool topology = false);

}  // namespace archfit::spread::detail
