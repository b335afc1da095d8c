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

#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <archfit/base/key_index.hpp>
#include <archfit/base/work_budget.hpp>
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

// What the input stream says that every configuration's spreads share, read
// once however many configurations a run has: its PodDistributors (found by
// the Deployment they name), which Deployments an autoscaler scales, its
// pools (found by name, each pool's keys read once), and whether any file
// may hold something to split.
struct SpreadStream {
  std::vector<spread::Distributor> distributors;
  // "namespace/name" of the Deployment -> the distributors naming it, in order.
  std::unordered_map<std::string, std::vector<std::size_t>, KeyedHash, std::equal_to<>>
      distributors_of;
  std::set<std::string> autoscaled;  // "namespace/name" of Deployments
  const std::vector<nodepools::Pool>* pools = nullptr;
  std::vector<nodepools::PoolKeys> pool_keys;  // of each pool
  std::unordered_map<std::string, std::vector<std::uint32_t>, KeyedHash, std::equal_to<>>
      pools_named;
  // Some file names the strategy, split or profile annotation; some file
  // says "Deployment".
  bool marked = false;
  bool deployments = false;
};

// Reads the stream's PodDistributors and what its files say (not yet which
// Deployments autoscalers scale: read_autoscalers). Throws Error(Input) at a
// PodDistributor field that cannot be read. `pools` must outlive it.
std::shared_ptr<SpreadStream> spread_stream(const std::vector<FileResult>& files,
                                            const std::vector<nodepools::Pool>& pools);
void read_autoscalers(const std::vector<FileResult>& files, SpreadStream& stream);

// What one configuration's spreads see: the stream, its own spread profiles
// and declared pools (after the stream's), and what it prepared once.
class SpreadWorld {
 public:
  SpreadWorld(std::shared_ptr<const SpreadStream> stream, std::vector<nodepools::Pool> declared,
              std::vector<spread::SpreadProfile> profiles, WorkBudget* budget);
  SpreadWorld(const SpreadWorld&) = delete;
  SpreadWorld& operator=(const SpreadWorld&) = delete;

  const SpreadStream& stream() const { return *stream_; }
  const std::vector<spread::SpreadProfile>& profiles() const { return profiles_; }
  const std::vector<nodepools::Pool>& declared() const { return declared_; }
  bool has_pools() const { return !declared_.empty() || !stream_->pools->empty(); }

  // The first pool named `name`, stream's first; nullptr when none is.
  const nodepools::Pool* first_named(std::string_view name) const;
  // The last Karpenter pool named `name`; nullptr when none is.
  const nodepools::Pool* last_karpenter_named(std::string_view name) const;
  // The profile named `name` (the first), or nullptr.
  const spread::SpreadProfile* profile_named(std::string_view name) const;
  // The first profile that assigns itself to a Deployment with these labels
  // in that namespace, or nullptr.
  const spread::SpreadProfile* profile_for(
      const std::vector<std::pair<std::string, std::string>>& labels,
      const std::string& namespace_name) const;

  // What the nodes of pools that may carry key=value are: their
  // architectures (known: some pool may carry it) and their taints other
  // than PreferNoSchedule, in pool order. nullopt when the run's budget
  // cannot pay for finding out (docs/node-pools.md, "Many pools").
  struct Group {
    bool known = false;
    std::set<std::string> archs;
    std::vector<nodepools::Taint> taints;
  };
  std::optional<Group> group(const std::string& key, const std::string& value) const;

  // Per profile (in the order of `profiles`), for topology spread profiles:
  // what every workload it applies to gets (the pools' values and
  // architectures; the pods' labels are the workload's), or why nothing.
  struct Topology {
    spread::TopologySpread spread;
    std::string refused;
  };
  std::vector<Topology> topologies;
  // may_spread holds for some file of the run: when not, no file of it has
  // anything to split or undo, nor names the split or the strategy
  // annotation.
  bool some_file_may_spread = false;

 private:
  std::shared_ptr<const SpreadStream> stream_;
  std::vector<nodepools::Pool> declared_;
  std::vector<nodepools::PoolKeys> declared_keys_;
  std::vector<spread::SpreadProfile> profiles_;
  std::unordered_map<std::string, std::size_t, KeyedHash, std::equal_to<>> profile_names_;
  // Profiles that assign themselves, by the rarest of their matchLabels
  // ("key\0value"), else by namespace; those with neither select anything.
  std::unordered_map<std::string, std::vector<std::size_t>, KeyedHash, std::equal_to<>> by_label_;
  std::unordered_map<std::string, std::vector<std::size_t>, KeyedHash, std::equal_to<>>
      by_namespace_;
  std::vector<std::size_t> select_all_;
  WorkBudget* budget_;
  mutable std::mutex mutex_;
  mutable std::unordered_map<std::string, Group, KeyedHash, std::equal_to<>> groups_;
};

// The world of one configuration, over `stream`.
std::unique_ptr<SpreadWorld> spread_world(std::shared_ptr<const SpreadStream> stream,
                                          std::vector<nodepools::Pool> declared,
                                          std::vector<spread::SpreadProfile> profiles,
                                          WorkBudget* budget);

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
