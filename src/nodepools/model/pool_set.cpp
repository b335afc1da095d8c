#include <algorithm>
#include <cstring>

#include <archfit/nodepools/model/labels.hpp>
#include <archfit/nodepools/model/pool_set.hpp>

namespace archfit::nodepools {

namespace {

// Length-prefixed pieces: no two different lists of strings write the same.
void put(std::string& out, std::string_view s) {
  out += std::to_string(s.size());
  out += ':';
  out += s;
}

}  // namespace

std::string pool_signature(const Pool& p, bool named) {
  std::string out;
  if (named) put(out, p.name);
  put(out, std::to_string(static_cast<int>(p.source)));
  put(out, p.api_version);
  put(out, "l" + std::to_string(p.labels.size()));
  for (const auto& [k, v] : p.labels) {
    put(out, k);
    put(out, v);
  }
  put(out, "r" + std::to_string(p.requirements.size()));
  for (const Requirement& r : p.requirements) {
    put(out, r.key);
    put(out, operator_name(r.op));
    put(out, std::to_string(r.values.size()));
    for (const std::string& v : r.values)
      put(out, v);
  }
  put(out, "t" + std::to_string(p.taints.size()));
  for (const Taint& t : p.taints) {
    put(out, t.key);
    put(out, t.value);
    put(out, t.effect);
  }
  put(out, "i" + std::to_string(p.instance_types.size()));
  for (const std::string& t : p.instance_types)
    put(out, t);
  put(out, "a" + std::to_string(p.instance_archs.size()));
  for (const std::string& a : p.instance_archs)
    put(out, a);
  put(out, "u" + std::to_string(p.unknown_types.size()));
  for (const std::string& t : p.unknown_types)
    put(out, t);
  put(out, p.os ? "o" + *p.os : "-");
  if (p.well_known) {
    put(out, "w" + std::to_string(p.well_known->size()));
    for (const std::string& k : *p.well_known)
      put(out, k);
  } else {
    put(out, "-");
  }
  return out;
}

namespace {

// The same needs write the same key.
std::string key_of(const PodNeeds& n) {
  std::string out;
  put(out, "s" + std::to_string(n.node_selector.size()));
  for (const auto& [k, v] : n.node_selector) {
    put(out, k);
    put(out, v);
  }
  put(out, "t" + std::to_string(n.terms.size()));
  for (const Term& term : n.terms) {
    put(out, std::to_string(term.expressions.size()));
    for (const Requirement& r : term.expressions) {
      put(out, r.key);
      put(out, operator_name(r.op));
      put(out, std::to_string(r.values.size()));
      for (const std::string& v : r.values)
        put(out, v);
    }
    put(out, "n" + std::to_string(term.names.size()));
    for (const std::string& name : term.names)
      put(out, name);
    put(out, "x" + std::to_string(term.not_names.size()));
    for (const std::string& name : term.not_names)
      put(out, name);
    put(out, term.matches_nothing);
  }
  put(out, n.comparison_operators ? "c" : "-");
  put(out, "o" + std::to_string(n.tolerations.size()));
  for (const Toleration& t : n.tolerations) {
    put(out, t.key);
    put(out, t.op);
    put(out, t.value);
    put(out, t.effect);
  }
  put(out, "k" + std::to_string(n.spread_keys.size()));
  for (const std::string& k : n.spread_keys)
    put(out, k);
  for (const auto* set : {&n.archs, &n.oses}) {
    if (*set) {
      put(out, "a" + std::to_string((*set)->size()));
      for (const std::string& a : **set)
        put(out, a);
    } else {
      put(out, "-");
    }
  }
  return out;
}

// The steps one check of the needs against a pool takes: each term is
// checked with the nodeSelector and the architectures added to it.
std::uint64_t size_of(const PodNeeds& n) {
  const std::uint64_t common = n.node_selector.size() + (n.archs ? 1 : 0) + (n.oses ? 1 : 0);
  std::uint64_t size = 1 + n.tolerations.size() + n.spread_keys.size() + common;
  for (const Term& term : n.terms)
    size += common + term.expressions.size() + term.names.size() + term.not_names.size();
  return size;
}

// Keys whose value a pool's nodes carry because of what the pool is called.
bool is_name_key(std::string_view key) {
  return key == "karpenter.sh/nodepool" || key == "karpenter.sh/provisioner-name" ||
         key == "eks.amazonaws.com/nodegroup" || key == "alpha.eksctl.io/nodegroup-name";
}

bool names_pools(const PodNeeds& n) {
  auto named = [](std::string_view key) { return is_name_key(normalized_label(key)); };
  for (const auto& [k, v] : n.node_selector) {
    if (named(k)) return true;
  }
  for (const Term& term : n.terms) {
    for (const Requirement& r : term.expressions) {
      if (named(r.key)) return true;
    }
  }
  return std::any_of(n.spread_keys.begin(), n.spread_keys.end(), named);
}

// A label of the user's own: no pool's nodes carry it unless the pool says
// so, whatever the pool is (neither Karpenter nor a node group knows it).
bool is_own_label(std::string_view key) {
  return karpenter_label_kind(key, false) == LabelKind::Undefined &&
         karpenter_label_kind(key, true) == LabelKind::Undefined &&
         fixed_label_kind(key) == LabelKind::Undefined && known_label_values(key) == nullptr;
}

std::vector<std::uint32_t> merged(const std::vector<std::uint32_t>& a,
                                  const std::vector<std::uint32_t>& b) {
  std::vector<std::uint32_t> out;
  out.reserve(a.size() + b.size());
  std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

}  // namespace

PoolSet::PoolSet(std::vector<const Pool*> pools) : pools_(std::move(pools)) {
  keys_.reserve(pools_.size());
  std::unordered_map<std::string, std::uint32_t, KeyedHash, std::equal_to<>> by_signature;
  for (std::uint32_t i = 0; i < pools_.size(); ++i) {
    const Pool& p = *pools_[i];
    keys_.emplace_back(p);
    auto [it, added] =
        by_signature.try_emplace(pool_signature(p), static_cast<std::uint32_t>(classes_.size()));
    if (!added) continue;
    classes_.push_back(Class{i, 1 + p.labels.size() + p.requirements.size() + p.taints.size()});
    const std::uint32_t c = it->second;
    for (const auto& [key, domain] : keys_.back().defined()) {
      if (!is_own_label(key)) continue;
      LabelIndex& index = labels_[key];
      if (std::optional<std::set<std::string>> values = domain.values()) {
        for (const std::string& v : *values)
          index.by_value[v].push_back(c);
      } else {
        index.any_value.push_back(c);
      }
    }
  }
}

std::vector<std::uint32_t> PoolSet::candidates(const PodNeeds& needs) const {
  // The smallest list any of the nodeSelector's own labels gives: a class
  // outside it has no node with that label and value.
  std::optional<std::vector<std::uint32_t>> best;
  for (const auto& [raw, value] : needs.node_selector) {
    std::string_view key = normalized_label(raw);
    if (!is_own_label(key)) continue;
    auto it = labels_.find(key);
    if (it == labels_.end()) return {};
    const LabelIndex& index = it->second;
    auto hit = index.by_value.find(value);
    std::vector<std::uint32_t> here =
        hit == index.by_value.end() ? index.any_value : merged(hit->second, index.any_value);
    if (!best || here.size() < best->size()) best = std::move(here);
  }
  if (best) return *best;
  std::vector<std::uint32_t> all(classes_.size());
  for (std::uint32_t c = 0; c < all.size(); ++c)
    all[c] = c;
  return all;
}

PoolSet::Answer PoolSet::answer(const PodNeeds& needs, WorkBudget& budget) const {
  const std::uint64_t asked = size_of(needs);
  Answer out;
  // A pool where the pods fit only on nodes of the names they require: the
  // answer unless another pool takes them without.
  std::optional<std::uint32_t> by_name;
  auto fits = [&](std::uint32_t pool, std::uint64_t weight) {
    if (!budget.spend(weight + asked)) {
      out.checked = false;
      return false;
    }
    bool named = false;
    if (why_not(needs, keys_[pool], &named)) return false;
    if (!named) return true;
    if (!by_name) by_name = pool;
    return false;
  };
  if (names_pools(needs)) {
    // Pools differ by name here: each is asked.
    for (std::uint32_t i = 0; i < pools_.size() && out.checked; ++i) {
      const Pool& p = *pools_[i];
      if (fits(i, 1 + p.labels.size() + p.requirements.size() + p.taints.size())) return out;
    }
  } else {
    for (std::uint32_t c : candidates(needs)) {
      if (fits(classes_[c].first, classes_[c].weight)) return out;
      if (!out.checked) break;
    }
  }
  if (!out.checked) return out;
  if (by_name) {
    out.by_name = pools_[*by_name]->title();
    return out;
  }
  out.fits = false;
  out.reasons = reasons(needs);
  return out;
}

std::string PoolSet::reasons(const PodNeeds& needs) const {
  std::string out;
  for (std::size_t i = 0; i < pools_.size() && i < kNamed; ++i) {
    std::optional<std::string> why = why_not(needs, keys_[i]);
    out += (out.empty() ? "" : "; ") + pools_[i]->title() + ": " + why.value_or("?");
  }
  if (pools_.size() > kNamed)
    out += "; and " + std::to_string(pools_.size() - kNamed) + " more pools";
  return out;
}

PoolSet::Answer PoolSet::check(const PodNeeds& needs, WorkBudget& budget) const {
  std::string key = key_of(needs);
  {
    std::lock_guard lock(mutex_);
    auto it = answers_.find(key);
    if (it != answers_.end()) return it->second;
  }
  Answer a = answer(needs, budget);
  if (!a.checked) return a;
  std::lock_guard lock(mutex_);
  return answers_.try_emplace(std::move(key), std::move(a)).first->second;
}

}  // namespace archfit::nodepools
