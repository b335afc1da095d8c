#include <algorithm>
#include <deque>

#include <archfit/base/text.hpp>
#include <archfit/nodepools/model/read.hpp>
#include <archfit/run/wants.hpp>
#include <archfit/spread/feature.hpp>
#include <archfit/yaml/node.hpp>

namespace archfit::spread {

namespace {

// The architectures a template's images run on, as the lock file and the
// cache know them (nothing when one of them is not known there).
ArchLookup local_archs(const run::Setting& setting) {
  return [setting](const manifest::PodTemplate& t) -> std::optional<std::set<std::string>> {
    std::optional<std::set<std::string>> out;
    for (const manifest::Container& c : t.containers) {
      if (!c.reference || c.pull_policy == "Never") continue;
      const resolve::Resolution* r = setting.resolver->resolve_local(
          *c.reference, run::tag_ttl(setting.resolver->settings(), c.pull_policy));
      if (r == nullptr || !r->ok) return std::nullopt;
      std::set<std::string> archs;
      for (const image::Platform& p : r->platforms) {
        if (setting.config->cluster_platforms.contains(p)) archs.insert(p.architecture);
      }
      if (out) {
        std::erase_if(*out, [&archs](const std::string& a) { return !archs.contains(a); });
      } else {
        out = std::move(archs);
      }
    }
    return out;
  };
}

class SpreadPass : public run::DocumentPass {
 public:
  SpreadPass(const SpreadWorld& world, const ArchLookup& archs, const placement::Config& config,
             bool topology, bool pieces, bool analyze, bool splits)
      : world_(world),
        archs_(archs),
        config_(config),
        topology_(topology),
        pieces_(pieces),
        analyze_(analyze),
        splits_(splits) {}

  void prepare(const manifest::Workload& w, placement::TemplateContext& where) override {
    if (topology_) {
      if (&w != last_) {
        last_ = &w;
        spread_ = nullptr;
        if (std::optional<spread::TopologySpread> s = topology_spread(w, world_))
          spread_ = &spreads_.emplace_back(std::move(*s));
      }
      where.spread = spread_;
    }
    if (pieces_) where.group_tolerations = group_tolerations(w);
  }

  void analyze(const run::DocumentView& doc, std::vector<findings::Finding>& out) const override {
    if (analyze_) analyze_spreads(doc, world_, archs_, splits_, out);
  }

 private:
  // The tolerations a piece of a split needs for its group's pools, except
  // those of architecture taints, which placement gives by architecture.
  std::vector<placement::Toleration> group_tolerations(const manifest::Workload& w) const {
    std::vector<placement::Toleration> out = piece_tolerations(w, world_);
    std::erase_if(out, [this](const placement::Toleration& t) {
      for (const auto& [arch, conventions] : config_.architectures) {
        for (const placement::Toleration& a : conventions.tolerations) {
          if (a.key == t.key) return true;
        }
      }
      return false;
    });
    return out;
  }

  const SpreadWorld& world_;
  const ArchLookup& archs_;
  const placement::Config& config_;
  bool topology_;
  bool pieces_;
  bool analyze_;
  bool splits_;
  // The topology spreads of the document's workloads (contexts point here).
  std::deque<spread::TopologySpread> spreads_;
  const manifest::Workload* last_ = nullptr;
  const spread::TopologySpread* spread_ = nullptr;
};

}  // namespace

void Spread::gather(const run::Facts& facts) {
  task_ = facts.task;
  split_ = facts.split;
  configs_.clear();
  worlds_.clear();
  archs_.clear();
  // What the stream says, read once for every configuration; each
  // configuration's spreads over it, its own profiles and pools.
  std::shared_ptr<SpreadStream> stream = spread_stream(facts.files, pools_.stream());
  for (const run::Setting& setting : facts.settings) {
    configs_.push_back(setting.config);
    const nodepools::Settings& conf = setting.config->node_pools;
    worlds_.push_back(spread_world(stream, conf.declared, conf.spread_profiles, &facts.budget));
    archs_.push_back(local_archs(setting));
  }
  // Which Deployments an autoscaler scales matters only to a Deployment that
  // may be split: with nothing to spread anywhere, no document is read for it.
  if (std::any_of(worlds_.begin(), worlds_.end(),
                  [](const auto& w) { return w->some_file_may_spread; }))
    read_autoscalers(facts.files, *stream);
  topology_ = std::any_of(worlds_.begin(), worlds_.end(),
                          [](const auto& w) { return has_topology_profiles(*w); });
  active_ = std::any_of(worlds_.begin(), worlds_.end(), [](const auto& w) {
    return !w->stream().distributors.empty() || !w->profiles().empty();
  });
}

std::optional<std::string> Spread::rewrite(const run::FileResult& file) const {
  // The file is one spread_world read in gather, as it was then (no other
  // feature rewrites files): when none of them may spread, neither does it.
  if (!split_ || !worlds_[file.setting]->some_file_may_spread) return std::nullopt;
  return respread(file.original, *worlds_[file.setting], task_, archs_[file.setting]);
}

std::optional<run::OwnDocument> Spread::own(const run::DocumentScope& doc) const {
  // A PodDistributor that cannot be read was left out of the spreads; here
  // it throws again, to be reported on its document.
  // The kind first (a few keys of the root); the text only for distributors.
  if (yaml::lookup_path(doc.tree.root().resolved(), {"kind"}).scalar() == "PodDistributor" &&
      spread::may_hold_distributors(doc.text)) {
    static_cast<void>(spread::read_distributor(doc.tree.root()));
  }
  return std::nullopt;
}

std::unique_ptr<run::DocumentPass> Spread::pass(const run::DocumentView& doc) const {
  const bool changing = task_ != run::Task::Remove;
  const bool topology = topology_ && changing;
  // Either annotation in a document is in its file, which spread_world
  // looked for: when no file may spread, no document is looked at again.
  const bool may_be_marked = worlds_[doc.setting]->some_file_may_spread;
  const bool split_marked = may_be_marked && contains(doc.text, kSplitAnnotation);
  const bool pieces = changing && split_marked;
  const bool analyze =
      active_ || split_marked || (may_be_marked && contains(doc.text, spread::kStrategyAnnotation));
  if (!topology && !pieces && !analyze) return nullptr;
  return std::make_unique<SpreadPass>(*worlds_[doc.setting], archs_[doc.setting],
                                      *configs_[doc.setting], topology, pieces, analyze, split_);
}

}  // namespace archfit::spread
