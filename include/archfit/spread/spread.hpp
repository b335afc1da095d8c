// Weighted spread realised offline by splitting: a Deployment with a spread
// (a CustomPodScheduleStrategy annotation, or a PodDistributor naming it)
// becomes one Deployment per node group, each with its exact share of the
// replicas (bases first, then by weight: spread::try_allocate), its group's
// nodeSelector, a selector label of its own (archfit.io/spread-group) and a
// derived name. Every piece records the split in its archfit.io/split
// annotation:
//
//   archfit.io/split: "1/3 of web replicas=10 +nodeSelector"
//
// (piece 1 of 3 of Deployment "web", which had `replicas: 10`, "-" when it
// had none; `+field` for a mapping archfit created: nodeSelector,
// annotations). --remove drops pieces 2.. and takes the split out of piece
// 1, giving back the Deployment's bytes; fix first does the same and then
// splits again, so a second fix changes nothing and new weights take effect.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <archfit/manifest/workload.hpp>
#include <archfit/nodepools/model/pool.hpp>
#include <archfit/run/run.hpp>
#include <archfit/spread/model/distributor.hpp>
#include <archfit/spread/model/profile.hpp>

namespace archfit::spread {

using run::DocumentView;
using run::FileResult;
using run::Task;

inline constexpr const char* kSplitAnnotation = "archfit.io/split";
inline constexpr const char* kGroupLabel = "archfit.io/spread-group";

// What the whole input says that a split needs: the PodDistributors, which
// Deployments an autoscaler scales, and the node pools.
struct SpreadWorld {
  std::vector<spread::Distributor> distributors;
  std::vector<spread::SpreadProfile> profiles;  // spread.profiles
  std::set<std::string> autoscaled;             // "namespace/name" of Deployments
  std::vector<nodepools::Pool> pools;
  // Per profile (in the order of `profiles`), for topology spread profiles:
  // what every workload it applies to gets (the pools' values and
  // architectures; the pods' labels are the workload's), or why nothing.
  struct Topology {
    spread::TopologySpread spread;
    std::string refused;
  };
  std::vector<Topology> topologies;
  // may_spread holds for some file of the run (spread_world reads them all
  // once): when not, no file of it has anything to split or undo, nor names
  // the split or the strategy annotation.
  bool some_file_may_spread = false;
};

// Throws Error(Input) at a PodDistributor field that cannot be read.
SpreadWorld spread_world(const std::vector<FileResult>& files, std::vector<nodepools::Pool> pools,
                         std::vector<spread::SpreadProfile> profiles = {});

// The text may hold something to split or a split to undo.
bool may_spread(std::string_view text, const SpreadWorld& world);

// The file's text with every split taken out (Task::Remove), or taken out
// and done again (Task::Fix); nullopt when that is the text itself.
// `archs` gives, per Deployment, the architectures its images run on when
// the lock file or cache knows them (groups whose pools run none of them are
// left out).
using ArchLookup =
    std::function<std::optional<std::set<std::string>>(const manifest::PodTemplate&)>;
std::optional<std::string> respread(std::string_view text, const SpreadWorld& world, Task task,
                                    const ArchLookup& archs);

// Whether a spread profile of the world is realised by topology spread.
bool has_topology_profiles(const SpreadWorld& world);

// The topology spread a workload's pods are to carry: from the spread
// profile with realisation topologySpread that applies to it, when it can be
// written (analyze_spreads says why not when it cannot).
std::optional<spread::TopologySpread> topology_spread(const manifest::Workload& w,
                                                      const SpreadWorld& world);

// The taints of the pools a piece of a split goes to (its group's), other
// than PreferNoSchedule ones, as the tolerations its pods need; nothing for
// a workload that is not a piece.
std::vector<placement::Toleration> piece_tolerations(const manifest::Workload& w,
                                                     const SpreadWorld& world);

// The findings about spreads: Deployments fix would split (fixable), spreads
// it refuses and why, groups it leaves out, and that an in-cluster webhook
// reading the same annotation or PodDistributor would still act.
// `archs`: the document's setting's; `splits`: fix splits here
// (RunOptions::split).
void analyze_spreads(const DocumentView& doc, const SpreadWorld& world, const ArchLookup& archs,
                     bool splits, std::vector<findings::Finding>& findings);

}  // namespace archfit::spread
