// The pools a configuration checks pod templates against, arranged so that a
// run checks far fewer pairs than templates x pools (docs/node-pools.md, "Many
// pools"):
//
// - pools that differ only in their names and places answer every template
//   alike (unless it selects nodes by pool name): one of them is checked;
// - templates with the same needs get the answer the first one got;
// - a nodeSelector on a label of the user's own (team: web) finds the pools
//   whose nodes may carry that value through an index of such labels;
// - each pool's labels and requirements are read once, by key (PoolKeys).
//
// What checking still costs is drawn from the run's WorkBudget; an answer
// the budget could not pay for says so.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include <archfit/base/key_index.hpp>
#include <archfit/base/work_budget.hpp>
#include <archfit/nodepools/model/feasibility.hpp>
#include <archfit/nodepools/model/pool.hpp>

namespace archfit::nodepools {

// Everything feasibility reads of a pool, as one string: two pools with the
// same signature answer every template alike. With `named`, the name too.
std::string pool_signature(const Pool& pool, bool named = false);

class PoolSet {
 public:
  // Pools listed in a reason; the rest are counted.
  static constexpr std::size_t kNamed = 10;

  // The pools, in the order reasons name them; they must outlive the set.
  explicit PoolSet(std::vector<const Pool*> pools);
  PoolSet(const PoolSet&) = delete;
  PoolSet& operator=(const PoolSet&) = delete;

  bool empty() const { return pools_.empty(); }
  std::size_t size() const { return pools_.size(); }
  // How many pools differ in more than name and place.
  std::size_t classes() const { return classes_.size(); }

  struct Answer {
    bool fits = true;
    bool checked = true;  // false: the budget was spent before an answer
    // When no pool can run the pods: the first pools' reasons, in
    // Karpenter's words, and how many more there are.
    std::string reasons;
    // When they fit only on nodes of the names they require: the first pool
    // where they do (its title). Node names are not known offline.
    std::string by_name;
  };
  // Whether some pool can run pods with these needs. Safe from several
  // threads at once.
  Answer check(const PodNeeds& needs, WorkBudget& budget) const;

 private:
  struct Class {
    std::uint32_t first;   // the pool that stands for the class
    std::uint64_t weight;  // steps one check of it takes
  };
  // Classes whose nodes may carry a label of the user's with some value.
  struct LabelIndex {
    std::unordered_map<std::string, std::vector<std::uint32_t>, KeyedHash, std::equal_to<>>
        by_value;
    std::vector<std::uint32_t> any_value;  // the pool's domain is no finite list
  };

  Answer answer(const PodNeeds& needs, WorkBudget& budget) const;
  std::vector<std::uint32_t> candidates(const PodNeeds& needs) const;
  std::string reasons(const PodNeeds& needs) const;

  std::vector<const Pool*> pools_;
  std::vector<PoolKeys> keys_;  // of each pool
  std::vector<Class> classes_;
  std::unordered_map<std::string, LabelIndex, KeyedHash, std::equal_to<>> labels_;

  mutable std::mutex mutex_;
  mutable std::unordered_map<std::string, Answer, KeyedHash, std::equal_to<>> answers_;
};

}  // namespace archfit::nodepools
