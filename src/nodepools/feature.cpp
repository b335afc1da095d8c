#include <archfit/nodepools/feature.hpp>
#include <archfit/nodepools/model/read.hpp>
#include <archfit/nodepools/pool_documents.hpp>

namespace archfit::nodepools {

namespace {

// Checks each planned template against the pools of its setting.
class FeasibilityPass : public run::DocumentPass {
 public:
  explicit FeasibilityPass(const std::vector<nodepools::Pool>& pools) : pools_(pools) {}
  void check(const run::PlannedTemplate& t, std::vector<findings::Finding>& out) const override {
    if (std::optional<findings::Finding> f = check_feasibility(t, pools_)) out.push_back(*f);
  }

 private:
  const std::vector<nodepools::Pool>& pools_;
};

}  // namespace

void NodePools::gather(const run::Facts& facts) {
  task_ = facts.task;
  configs_.clear();
  pools_.clear();
  stream_ = stream_pools(facts.files, facts.settings);
  for (const run::Setting& s : facts.settings) {
    configs_.push_back(s.config);
    const nodepools::Settings& conf = s.config->node_pools;
    std::vector<nodepools::Pool>& all = pools_.emplace_back(stream_);
    all.insert(all.end(), conf.declared.begin(), conf.declared.end());
    if (conf.fix && task_ != run::Task::Remove) give_spread_values(all, conf.spread_profiles);
  }
}

std::optional<run::OwnDocument> NodePools::own(const run::DocumentScope& doc) const {
  // The kind first (a few keys of the root); the text only for pool objects.
  if (!nodepools::is_pool_object(doc.tree.root()) || !nodepools::may_hold_pools(doc.text))
    return std::nullopt;
  PoolDocument pool = analyze_pool_document(doc.tree, doc.first_line, doc.file, doc.document,
                                            *configs_[doc.setting], task_);
  return run::OwnDocument{std::move(pool.findings), std::move(pool.text)};
}

std::unique_ptr<run::DocumentPass> NodePools::pass(const run::DocumentView& doc) const {
  const std::vector<nodepools::Pool>& all = pools_[doc.setting];
  if (all.empty()) return nullptr;
  return std::make_unique<FeasibilityPass>(all);
}

}  // namespace archfit::nodepools
