#include <algorithm>
#include <charconv>
#include <map>
#include <unordered_map>

#include <archfit/base/key_index.hpp>
#include <archfit/nodepools/model/feasibility.hpp>
#include <archfit/nodepools/model/names.hpp>

namespace archfit::nodepools {

namespace {

std::string string_of(const yaml::Value* v) {
  if (v == nullptr) return {};
  if (v->is_string()) return v->as_string();
  if (v->type() == yaml::Value::Type::Int) return std::to_string(v->as_int());
  if (v->type() == yaml::Value::Type::Bool) return v->as_bool() ? "true" : "false";
  return {};
}

// An integer as the scheduler reads a Gt or Lt value of node affinity (Go's
// strconv.ParseInt: a sign, then decimal digits, in int64's range).
std::optional<std::int64_t> integer_of(std::string_view text) {
  if (text.starts_with('+')) text.remove_prefix(1);
  std::int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

// Why the scheduler cannot read a requirement of matchExpressions
// (apimachinery's NodeSelectorRequirementsAsSelector): "" when it can.
std::string unreadable(const Requirement& r) {
  std::string why;
  if (!is_valid(Syntax::QualifiedName, r.key, &why)) {
    return "its key \"" + r.key + "\" is not a label key (" + why + ")";
  }
  switch (r.op) {
    case Operator::In:
    case Operator::NotIn:
      if (r.values.empty()) return "it lists no value";
      for (const std::string& v : r.values) {
        if (!is_valid(Syntax::LabelValue, v, &why)) {
          return "its value \"" + v + "\" is not a label value (" + why + ")";
        }
      }
      return "";
    case Operator::Exists:
    case Operator::DoesNotExist:
      return r.values.empty()
                 ? ""
                 : "it has values, which " + std::string(operator_name(r.op)) + " takes none";
    case Operator::Gt:
    case Operator::Lt:
      if (r.values.size() != 1) return "it needs exactly one value";
      if (!integer_of(r.values[0])) return "its value \"" + r.values[0] + "\" is not an integer";
      return "";
    case Operator::Gte:
    case Operator::Lte:
      break;
  }
  return "its operator " + std::string(operator_name(r.op)) + " is not one a pod may use";
}

// A term as the scheduler reads it: what cannot be read, and a term that
// names nothing, match no node.
Term term_of(const yaml::Value& term) {
  Term out;
  const yaml::Value* expressions = term.find("matchExpressions");
  const yaml::Value* fields = term.find("matchFields");
  auto items = [](const yaml::Value* list) {
    return list != nullptr && list->is_sequence() ? list->items().size() : 0;
  };
  if (items(expressions) == 0 && items(fields) == 0) {
    out.matches_nothing = "it has no matchExpressions and no matchFields";
    return out;
  }
  auto requirement = [&](const yaml::Value& e, Requirement& r) {
    if (!e.is_mapping()) {
      out.matches_nothing = "a requirement is not a mapping";
      return false;
    }
    std::string op = string_of(e.find("operator"));
    std::optional<Operator> parsed = try_parse_operator(op);
    if (!parsed) {
      out.matches_nothing = "the requirement on " + string_of(e.find("key")) + " has operator \"" +
                            op + "\", which it cannot read";
      return false;
    }
    r = Requirement{string_of(e.find("key")), *parsed, {}};
    if (const yaml::Value* values = e.find("values"); values != nullptr && values->is_sequence()) {
      for (const yaml::Value& v : values->items())
        r.values.push_back(string_of(&v));
    }
    return true;
  };
  for (std::size_t i = 0; i < items(expressions); ++i) {
    Requirement r;
    if (!requirement(expressions->items()[i], r)) return out;
    if (std::string why = unreadable(r); !why.empty()) {
      out.matches_nothing = "it cannot read the requirement " + describe(r) + ": " + why;
      return out;
    }
    out.expressions.push_back(std::move(r));
  }
  for (std::size_t i = 0; i < items(fields); ++i) {
    Requirement r;
    if (!requirement(fields->items()[i], r)) return out;
    if (r.key != "metadata.name" || (r.op != Operator::In && r.op != Operator::NotIn) ||
        r.values.size() != 1) {
      out.matches_nothing = "it cannot read the field requirement " + describe(r) +
                            ": matchFields takes metadata.name In or NotIn one name";
      return out;
    }
    (r.op == Operator::In ? out.names : out.not_names).push_back(r.values[0]);
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

std::optional<std::int64_t> canonical_integer(std::string_view text) {
  std::string_view digits = text.starts_with('-') ? text.substr(1) : text;
  if (digits.empty() || (digits[0] == '0' && (digits.size() > 1 || text.size() > 1)) ||
      digits.find_first_not_of("0123456789") != std::string_view::npos) {
    return std::nullopt;  // "", "-", "007", "-0", "+1", "1.5", " 1"
  }
  std::int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

bool tolerates(const Toleration& t, const Taint& taint, bool comparison) {
  if (!t.effect.empty() && t.effect != taint.effect) return false;
  if (t.key.empty()) return t.op == "Exists";
  if (t.key != taint.key) return false;
  if (t.op == "Exists") return true;
  if (t.op == "Gt" || t.op == "Lt") {
    if (!comparison) return false;
    std::optional<std::int64_t> mine = canonical_integer(t.value);
    std::optional<std::int64_t> theirs = canonical_integer(taint.value);
    if (!mine || !theirs) return false;
    return t.op == "Gt" ? *theirs > *mine : *theirs < *mine;
  }
  return (t.op == "Equal" || t.op.empty()) && t.value == taint.value;
}

bool tolerates(const std::vector<Toleration>& tolerations, const Taint& taint, bool comparison) {
  for (const Toleration& t : tolerations) {
    if (tolerates(t, taint, comparison)) return true;
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
      if (term.is_mapping()) {
        out.terms.push_back(term_of(term));
      } else if (term.is_null()) {
        out.terms.push_back(Term{{}, {}, {}, "it is empty"});
      }
    }
  }
  // Required affinity without a term (none given, null, or an empty list):
  // the scheduler matches no node.
  if (required != nullptr && required->is_mapping() && out.terms.empty() &&
      (terms == nullptr || terms->is_null() || terms->is_sequence())) {
    out.terms.push_back(
        Term{{}, {}, {}, "requiredDuringSchedulingIgnoredDuringExecution has no term"});
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

std::optional<std::string> why_not(const PodNeeds& pod, const Pool& pool, bool* by_name) {
  return why_not(pod, PoolKeys(pool), by_name);
}

namespace {

constexpr std::string_view kNoAffinity = "node(s) didn't match Pod's node affinity/selector";

// Whether the term holds only on nodes of a name it requires: a matchFields
// name, or the kubernetes.io/hostname label In some values (a node group's
// and a declared pool's nodes carry it, with names nobody knows offline).
bool needs_names(const Term& term) {
  if (!term.names.empty()) return true;
  return std::any_of(term.expressions.begin(), term.expressions.end(), [](const Requirement& r) {
    return r.key == "kubernetes.io/hostname" && r.op == Operator::In;
  });
}

// Why the names a term requires of a node cannot all be one node's: "" when
// they can.
std::string names_clash(const Term& term) {
  for (const std::string& name : term.names) {
    if (name != term.names.front()) {
      return "it requires the node names \"" + term.names.front() + "\" and \"" + name +
             "\" of one node";
    }
    if (std::find(term.not_names.begin(), term.not_names.end(), name) != term.not_names.end()) {
      return "it requires the node name \"" + name + "\" and excludes it";
    }
  }
  return "";
}

}  // namespace

std::optional<std::string> why_not(const PodNeeds& pod, const PoolKeys& keys, bool* by_name) {
  if (by_name != nullptr) *by_name = false;
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
  const bool comparison = pod.comparison_operators;
  auto tolerated = [&](const Taint& taint) {
    if (!indexed) return tolerates(pod.tolerations, taint, comparison);
    auto match = [&](const Toleration* t) { return tolerates(*t, taint, comparison); };
    auto it = by_key.find(taint.key);
    return std::any_of(keyless.begin(), keyless.end(), match) ||
           (it != by_key.end() && std::any_of(it->second.begin(), it->second.end(), match));
  };
  for (const Taint& taint : pool.taints) {
    if (taint.effect == "PreferNoSchedule") continue;
    if (!tolerated(taint)) return "did not tolerate taint (taint=" + describe(taint) + ")";
  }
  // A label value no node can carry.
  for (const auto& [k, v] : pod.node_selector) {
    std::string why;
    if (!is_valid(Syntax::LabelValue, v, &why)) {
      return std::string(kNoAffinity) + ": the nodeSelector value \"" + v + "\" of " + k +
             " is not a label value (" + why + ")";
    }
  }
  // Every term carries the nodeSelector and the images' systems and
  // architectures.
  std::vector<Requirement> common;
  for (const auto& [k, v] : pod.node_selector)
    common.push_back(Requirement{k, Operator::In, {v}});
  if (pod.oses) {
    common.push_back(
        Requirement{"kubernetes.io/os", Operator::In, {pod.oses->begin(), pod.oses->end()}});
  }
  if (pod.archs) {
    common.push_back(Requirement{kArchLabel, Operator::In, {pod.archs->begin(), pod.archs->end()}});
  }
  std::optional<std::string> first;
  if (pod.terms.empty()) {
    first = clash(common, keys);
  } else {
    bool fits_by_name = false;
    for (std::size_t i = 0; i < pod.terms.size(); ++i) {
      const Term& term = pod.terms[i];
      std::string nothing = term.matches_nothing.empty() ? names_clash(term) : term.matches_nothing;
      if (!nothing.empty()) {
        if (!first) {
          first = std::string(kNoAffinity) + ": the term nodeSelectorTerms[" + std::to_string(i) +
                  "] matches no node: " + nothing;
        }
        continue;
      }
      std::vector<Requirement> all = common;
      all.insert(all.end(), term.expressions.begin(), term.expressions.end());
      std::optional<std::string> why = clash(all, keys);
      if (!why) {
        if (!needs_names(term)) {
          fits_by_name = false;
          first.reset();
          break;
        }
        fits_by_name = true;
        continue;
      }
      if (!first) first = std::move(why);
    }
    if (fits_by_name) {
      first.reset();
      if (by_name != nullptr) *by_name = true;
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
