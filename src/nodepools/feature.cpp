#include <archfit/nodepools/feature.hpp>
#include <archfit/nodepools/model/read.hpp>
#include <archfit/nodepools/pool_documents.hpp>

namespace archfit::nodepools {

namespace {

// Checks each planned template against the pools of its setting.
class FeasibilityPass : public run::DocumentPass {
 public:
  FeasibilityPass(const nodepools::PoolSet& pools, WorkBudget& budget, std::atomic<bool>& unchecked,
                  bool comparison_operators)
      : pools_(pools),
        budget_(budget),
        unchecked_(unchecked),
        comparison_operators_(comparison_operators) {}
  void check(const run::PlannedTemplate& t, std::vector<findings::Finding>& out) const override {
    // Once the budget is spent nothing more is checked, and that is said once.
    if (budget_.spent() && unchecked_.load()) return;
    bool unchecked = false;
    std::optional<findings::Finding> f =
        check_feasibility(t, pools_, budget_, &unchecked, comparison_operators_);
    if (unchecked && unchecked_.exchange(true)) return;
    if (f) out.push_back(std::move(*f));
  }

 private:
  const nodepools::PoolSet& pools_;
  WorkBudget& budget_;
  std::atomic<bool>& unchecked_;
  bool comparison_operators_;
};

bool has_topology_profiles(const placement::Config& config) {
  for (const spread::SpreadProfile& p : config.node_pools.spread_profiles) {
    if (p.realisation == spread::Realisation::TopologySpread) return true;
  }
  return false;
}

}  // namespace

const NodePools::Pools& NodePools::shared() {
  if (!shared_) {
    shared_ = std::make_unique<Pools>();
    std::vector<const nodepools::Pool*> all;
    for (const nodepools::Pool& p : stream_)
      all.push_back(&p);
    shared_->set = std::make_unique<nodepools::PoolSet>(std::move(all));
  }
  return *shared_;
}

const NodePools::Pools& NodePools::pools_for(const placement::Config& config) {
  const nodepools::Settings& conf = config.node_pools;
  const bool changes = conf.fix && task_ != run::Task::Remove && has_topology_profiles(config);
  if (!changes && conf.declared.empty()) return shared();
  // Configurations that say the same of pools share theirs, however many.
  std::string key = changes ? "changes\n" : "keeps\n";
  for (const nodepools::Pool& p : conf.declared)
    key += nodepools::pool_signature(p, true);
  if (changes) key += nodepools::SpreadLabels(conf.spread_profiles).signature();
  std::unique_ptr<Pools>& mine = pools_[key];
  if (mine) return *mine;
  mine = std::make_unique<Pools>();
  if (changes) {
    mine->own = stream_;
    give_spread_values(mine->own, nodepools::SpreadLabels(conf.spread_profiles));
  }
  mine->own.insert(mine->own.end(), conf.declared.begin(), conf.declared.end());
  std::vector<const nodepools::Pool*> all;
  if (!changes) {
    for (const nodepools::Pool& p : stream_)
      all.push_back(&p);
  }
  for (const nodepools::Pool& p : mine->own)
    all.push_back(&p);
  mine->set = std::make_unique<nodepools::PoolSet>(std::move(all));
  return *mine;
}

void NodePools::gather(const run::Facts& facts) {
  task_ = facts.task;
  budget_ = &facts.budget;
  configs_.clear();
  labels_.clear();
  sets_.clear();
  shared_.reset();
  pools_.clear();
  unchecked_ = false;
  stream_ = stream_pools(facts.files, facts.settings);
  for (const run::Setting& s : facts.settings) {
    configs_.push_back(s.config);
    labels_.emplace_back(s.config->node_pools.spread_profiles);
  }
  for (const run::Setting& s : facts.settings)
    sets_.push_back(pools_for(*s.config).set.get());
}

std::optional<run::OwnDocument> NodePools::own(const run::DocumentScope& doc) const {
  // The kind first (a few keys of the root); the text only for pool objects.
  if (!nodepools::is_pool_object(doc.tree.root()) || !nodepools::may_hold_pools(doc.text))
    return std::nullopt;
  PoolDocument pool = analyze_pool_document(doc.tree, doc.first_line, doc.file, doc.document,
                                            *configs_[doc.setting], labels_[doc.setting], task_);
  return run::OwnDocument{std::move(pool.findings), std::move(pool.text)};
}

std::unique_ptr<run::DocumentPass> NodePools::pass(const run::DocumentView& doc) const {
  const nodepools::PoolSet& set = *sets_[doc.setting];
  if (set.empty()) return nullptr;
  return std::make_unique<FeasibilityPass>(set, *budget_, unchecked_,
                                           configs_[doc.setting]->taint_comparison_operators);
}

}  // namespace archfit::nodepools
