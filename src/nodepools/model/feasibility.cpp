#include <algorithm>
#include <map>
#include <unordered_map>

#include <archfit/base/key_index.hpp>
#include <archfit/nodepools/model/feasibility.hpp>

namespace archfit::nodepools {

namespace {

std::string string_of(const yaml::Value* v) {
  if (v == nullptr) return {};
  if (v->is_string()) return v->as_string();
  if (v->type() == yaml::Value::Type::Int) return std::to_string(v->as_int());
  if (v->type() == yaml::Value::Type::Bool) return v->as_bool() ? "true" : "false";
  return {};
}

std::vector<Requirement> expressions_of(const yaml::Value& term) {
  std::vector<Requirement> out;
  const yaml::Value* list = term.find("matchExpressions");
  if (list == nullptr || !list->is_sequence()) return out;
  for (const yaml::Value& e : list->items()) {
    if (!e.is_mapping()) continue;
    std::optional<Operator> op = try_parse_operator(string_of(e.find("operator")));
    if (!op) continue;
    Requirement r{string_of(e.find("key")), *op, {}};
    if (const yaml::Value* values = e.find("values"); values != nullptr && values->is_sequence()) {
      for (const yaml::Value& v : values->items())
        r.values.push_back(string_of(&v));
    }
    out.push_back(std::move(r));
  }
  return out;
}

// "key In [a b], key NotIn [c]": the pod's own requirements on a key.
std::string written(const std::vector<Requirement>& term, std::string_view key) {
  std::string out;
  for (const Requirement& r : term) {
    if (r.key != key) continue;
    out += (out.empty() ? "" : ", ") + describe(r);
  }
  return out;
}

// The first key on which the pod's term and the pool cannot agree. Keys are
// compared by their current names, as Karpenter normalizes them.
std::optional<std::string> clash(std::vector<Requirement> term, const PoolKeys& keys) {
  const Pool& pool = keys.pool();
  for (Requirement& r : term)
    r.key = std::string(normalized_label(r.key));
  std::map<std::string, Domain, std::less<>> wanted;
  for (const Requirement& r : term) {
    // In and NotIn need values: the API server refuses them empty.
    if ((r.op == Operator::In || r.op == Operator::NotIn) && r.values.empty()) {
      return "requirement " + describe(r) +
             " lists no value: no node matches it, and the API server refuses it";
    }
    wanted.try_emplace(r.key, Domain::any()).first->second.narrow(r);
  }
  for (const Requirement& r : term) {
    auto it = wanted.find(r.key);
    if (it == wanted.end()) continue;  // reported already
    const Domain& want = it->second;
    if (want.empty()) {
      return "incompatible requirements, key " + r.key + ": " + written(term, r.key) +
             " exclude each other";
    }
    Domain have = keys.domain(r.key);
    if (!want.compatible(have)) {
      if (pool.karpenter() && !keys.defines(r.key)) {
        switch (pool.label_kind(r.key)) {
          case LabelKind::Restricted:
            return "incompatible requirements, label \"" + r.key +
                   "\" is restricted: Karpenter gives a new node no value a pod asks for";
          case LabelKind::Undefined:
            return "incompatible requirements, label \"" + r.key + "\" does not have known values";
          case LabelKind::Always:
          case LabelKind::Optional:
            break;
        }
      }
      return "incompatible requirements, key " + r.key + ", " + want.describe(r.key) + " not in " +
             have.describe(r.key);
    }
    wanted.erase(it);
  }
  return std::nullopt;
}

}  // namespace

bool tolerates(const Toleration& t, const Taint& taint) {
  if (!t.effect.empty() && t.effect != taint.effect) return false;
  if (t.key.empty()) return t.op == "Exists";
  if (t.key != taint.key) return false;
  return t.op == "Exists" || t.value == taint.value;
}

bool tolerates(const std::vector<Toleration>& tolerations, const Taint& taint) {
  for (const Toleration& t : tolerations) {
    if (tolerates(t, taint)) return true;
  }
  return false;
}

PodNeeds needs_of(const yaml::Value& spec) {
  PodNeeds out;
  if (const yaml::Value* s = spec.find("nodeSelector"); s != nullptr && s->is_mapping()) {
    for (const auto& [k, v] : s->entries())
      out.node_selector.emplace_back(k, string_of(&v));
  }
  const yaml::Value* affinity = spec.find("affinity");
  const yaml::Value* node = affinity != nullptr ? affinity->find("nodeAffinity") : nullptr;
  const yaml::Value* required =
      node != nullptr ? node->find("requiredDuringSchedulingIgnoredDuringExecution") : nullptr;
  const yaml::Value* terms = required != nullptr ? required->find("nodeSelectorTerms") : nullptr;
  if (terms != nullptr && terms->is_sequence()) {
    for (const yaml::Value& term : terms->items()) {
      if (term.is_mapping()) out.terms.push_back(expressions_of(term));
    }
  }
  if (const yaml::Value* list = spec.find("tolerations"); list != nullptr && list->is_sequence()) {
    for (const yaml::Value& t : list->items()) {
      if (!t.is_mapping()) continue;
      Toleration tol{string_of(t.find("key")), string_of(t.find("operator")),
                     string_of(t.find("value")), string_of(t.find("effect"))};
      if (tol.op.empty()) tol.op = "Equal";
      out.tolerations.push_back(std::move(tol));
    }
  }
  if (const yaml::Value* list = spec.find("topologySpreadConstraints");
      list != nullptr && list->is_sequence()) {
    for (const yaml::Value& c : list->items()) {
      if (!c.is_mapping()) continue;
      std::string key = string_of(c.find("topologyKey"));
      std::string when = string_of(c.find("whenUnsatisfiable"));
      if (!key.empty() && (when.empty() || when == "DoNotSchedule")) out.spread_keys.push_back(key);
    }
  }
  return out;
}

std::optional<std::string> why_not(const PodNeeds& pod, const Pool& pool) {
  return why_not(pod, PoolKeys(pool));
}

std::optional<std::string> why_not(const PodNeeds& pod, const PoolKeys& keys) {
  const Pool& pool = keys.pool();
  // Many tolerations and many taints: the tolerations by key, so that each
  // taint is held against those of its key and the key-less ones only.
  constexpr std::size_t kScanned = 8;
  std::unordered_map<std::string_view, std::vector<const Toleration*>, KeyedHash> by_key;
  std::vector<const Toleration*> keyless;
  const bool indexed = pod.tolerations.size() > kScanned && pool.taints.size() > 1;
  if (indexed) {
    for (const Toleration& t : pod.tolerations)
      (t.key.empty() ? keyless : by_key[t.key]).push_back(&t);
  }
  auto tolerated = [&](const Taint& taint) {
    if (!indexed) return tolerates(pod.tolerations, taint);
    auto match = [&taint](const Toleration* t) { return tolerates(*t, taint); };
    auto it = by_key.find(taint.key);
    return std::any_of(keyless.begin(), keyless.end(), match) ||
           (it != by_key.end() && std::any_of(it->second.begin(), it->second.end(), match));
  };
  for (const Taint& taint : pool.taints) {
    if (taint.effect == "PreferNoSchedule") continue;
    if (!tolerated(taint)) return "did not tolerate taint (taint=" + describe(taint) + ")";
  }
  // Every term carries the nodeSelector and the images' architectures.
  std::vector<Requirement> common;
  for (const auto& [k, v] : pod.node_selector)
    common.push_back(Requirement{k, Operator::In, {v}});
  if (pod.archs) {
    common.push_back(Requirement{kArchLabel, Operator::In, {pod.archs->begin(), pod.archs->end()}});
  }
  std::optional<std::string> first;
  if (pod.terms.empty()) {
    first = clash(common, keys);
  } else {
    for (const std::vector<Requirement>& term : pod.terms) {
      std::vector<Requirement> all = common;
      all.insert(all.end(), term.begin(), term.end());
      std::optional<std::string> why = clash(all, keys);
      if (!why) {
        first.reset();
        break;
      }
      if (!first) first = std::move(why);
    }
  }
  if (first) return first;
  for (const std::string& key : pod.spread_keys) {
    if (!keys.domain(key).compatible(Domain::present())) {
      return "topology spread over \"" + key +
             "\" (DoNotSchedule): no node of the pool carries that label, and a node without it "
             "is no candidate";
    }
  }
  return std::nullopt;
}

}  // namespace archfit::nodepools
