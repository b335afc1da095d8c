#include "placement/constraints.hpp"

#include <algorithm>

namespace archfit::placement::detail {

using yaml::Value;

namespace {

constexpr const char* kRequired = "requiredDuringSchedulingIgnoredDuringExecution";
constexpr const char* kPreferred = "preferredDuringSchedulingIgnoredDuringExecution";

Value strings(const std::vector<std::string>& values) {
  Value seq = Value::sequence();
  for (const std::string& v : values)
    seq.items().push_back(Value::string(v));
  return seq;
}

Value expression(const std::string& key, const std::vector<std::string>& values) {
  Value e = Value::mapping();
  e.set("key", Value::string(key));
  e.set("operator", Value::string("In"));
  e.set("values", strings(values));
  return e;
}

// The single label key that tells every architecture of S apart, when the
// configuration uses one (kubernetes.io/arch by default); "" otherwise.
std::string uniform_arch_key(const image::PlatformSet& S, const NodeModel& nodes) {
  std::string key;
  for (const std::string& arch : S.archs()) {
    auto it = nodes.config().architectures.find(arch);
    if (it == nodes.config().architectures.end()) return kArchKey;
    const auto& labels = it->second.node_labels;
    if (labels.size() != 1) return {};
    if (!key.empty() && labels[0].first != key) return {};
    key = labels[0].first;
  }
  return key.empty() ? std::string(kArchKey) : key;
}

std::vector<Value> labels_of(const std::string& arch, const NodeModel& nodes) {
  std::vector<Value> out;
  auto it = nodes.config().architectures.find(arch);
  if (it == nodes.config().architectures.end() || it->second.node_labels.empty()) {
    out.push_back(expression(kArchKey, {arch}));
    return out;
  }
  for (const auto& [key, value] : it->second.node_labels)
    out.push_back(expression(key, {value}));
  return out;
}

// Makes `parent[key]` a mapping (creating it) and returns it.
Value& mapping_at(Value& parent, const char* key) {
  if (!parent.is_mapping()) parent = Value::mapping();
  Value* child = parent.find(key);
  if (child == nullptr || !child->is_mapping()) return parent.set(key, Value::mapping());
  return *child;
}

Value& sequence_at(Value& parent, const char* key) {
  if (!parent.is_mapping()) parent = Value::mapping();
  Value* child = parent.find(key);
  if (child == nullptr || !child->is_sequence()) return parent.set(key, Value::sequence());
  return *child;
}

Value* terms_of(Value& affinity) {
  return const_cast<Value*>(required_terms(static_cast<const Value&>(affinity)));
}

bool subset(const image::PlatformSet& a, const image::PlatformSet& b) {
  return std::all_of(a.begin(), a.end(), [&b](const image::Platform& p) { return b.contains(p); });
}

// The term ANDed with one alternative, or null when nothing would be left.
Value narrow(const Value& term, const std::vector<Value>& alternative) {
  Value out = term.is_mapping() ? term : Value::mapping();
  Value& expressions = sequence_at(out, "matchExpressions");
  for (const Value& wanted : alternative) {
    std::string key = string_field(wanted, "key");
    const Value::Sequence& allowed = wanted.find("values")->items();
    Value* existing = nullptr;
    for (Value& e : expressions.items()) {
      if (e.is_mapping() && string_field(e, "key") == key && string_field(e, "operator") == "In") {
        existing = &e;
      }
    }
    if (existing == nullptr) {
      expressions.items().push_back(wanted);
      continue;
    }
    Value* values = existing->find("values");
    Value kept = Value::sequence();
    if (values != nullptr && values->is_sequence()) {
      for (const Value& v : values->items()) {
        if (std::find(allowed.begin(), allowed.end(), v) != allowed.end())
          kept.items().push_back(v);
      }
    }
    if (kept.items().empty()) return Value();
    existing->set("values", std::move(kept));
  }
  return out;
}

void prune_affinity(Value& affinity) {
  if (!affinity.is_mapping()) return;
  if (Value* node_affinity = affinity.find("nodeAffinity"); node_affinity != nullptr) {
    if (Value* required = node_affinity->find(kRequired); required != nullptr) {
      Value* terms = required->find("nodeSelectorTerms");
      if (terms != nullptr && is_empty(*terms)) required->erase("nodeSelectorTerms");
      if (is_empty(*required)) node_affinity->erase(kRequired);
    }
    if (Value* preferred = node_affinity->find(kPreferred);
        preferred != nullptr && is_empty(*preferred)) {
      node_affinity->erase(kPreferred);
    }
    if (is_empty(*node_affinity)) affinity.erase("nodeAffinity");
  }
  if (is_empty(affinity)) affinity = Value();
}

// Removes the expressions `drop` says to from every term; drops terms left
// empty and repeated ones.
template <typename Drop>
void remove_expressions(Value& affinity, Drop&& drop) {
  Value* terms = terms_of(affinity);
  if (terms == nullptr) return;
  Value::Sequence kept;
  for (Value& term : terms->items()) {
    if (Value* expressions = term.find("matchExpressions");
        expressions != nullptr && expressions->is_sequence()) {
      std::erase_if(expressions->items(), drop);
      if (expressions->items().empty()) term.erase("matchExpressions");
    }
    if (is_empty(term)) continue;
    if (std::find(kept.begin(), kept.end(), term) != kept.end()) continue;
    kept.push_back(std::move(term));
  }
  *terms = Value::sequence(std::move(kept));
  prune_affinity(affinity);
}

}  // namespace

bool is_empty(const Value& v) {
  return v.is_null() || (v.is_mapping() && v.entries().empty()) ||
         (v.is_sequence() && v.items().empty());
}

Alternatives requirements_for(const image::PlatformSet& S, const NodeModel& nodes) {
  const image::PlatformSet& cluster = nodes.config().cluster_platforms;
  bool multi_os = cluster.oses().size() > 1;
  std::string key = uniform_arch_key(S, nodes);
  Alternatives out;
  if (!key.empty()) {
    // Is S everything the cluster has in oses(S) x archs(S)? Then one
    // alternative says it; otherwise one per OS.
    const std::vector<std::string> oses = S.oses();
    const std::vector<std::string> archs = S.archs();
    bool rectangle = true;
    for (const image::Platform& p : cluster) {
      bool in_box = std::find(oses.begin(), oses.end(), p.os) != oses.end() &&
                    std::find(archs.begin(), archs.end(), p.architecture) != archs.end();
      if (in_box && !S.contains(p)) rectangle = false;
    }
    auto values_of = [&](const std::vector<std::string>& of) {
      std::vector<std::string> values;
      for (const std::string& arch : of) {
        auto it = nodes.config().architectures.find(arch);
        bool custom = it != nodes.config().architectures.end() && !it->second.node_labels.empty();
        values.push_back(custom ? it->second.node_labels[0].second : arch);
      }
      std::sort(values.begin(), values.end());
      values.erase(std::unique(values.begin(), values.end()), values.end());
      return values;
    };
    if (!multi_os || rectangle) {
      std::vector<Value> alt{expression(key, values_of(archs))};
      if (multi_os) alt.push_back(expression(kOsKey, oses));
      out.push_back(std::move(alt));
      return out;
    }
    for (const std::string& os : oses) {
      std::vector<std::string> os_archs;
      for (const image::Platform& p : S) {
        if (p.os == os) os_archs.push_back(p.architecture);
      }
      out.push_back({expression(kOsKey, {os}), expression(key, values_of(os_archs))});
    }
    return out;
  }
  // Architectures told apart by different labels: one alternative each.
  for (const image::Platform& p : S) {
    std::vector<Value> alt;
    if (multi_os) alt.push_back(expression(kOsKey, {p.os}));
    for (Value& e : labels_of(p.architecture, nodes))
      alt.push_back(std::move(e));
    if (std::find(out.begin(), out.end(), alt) == out.end()) out.push_back(std::move(alt));
  }
  return out;
}

void restrict_to(PodPlacement& p, const image::PlatformSet& S, const NodeModel& nodes, Mode mode) {
  Alternatives alternatives = requirements_for(S, nodes);
  Value* terms = terms_of(p.affinity);
  if (terms == nullptr || terms->items().empty()) {
    bool single_values =
        alternatives.size() == 1 &&
        std::all_of(alternatives[0].begin(), alternatives[0].end(),
                    [](const Value& e) { return e.find("values")->items().size() == 1; });
    if (mode == Mode::NodeSelector && single_values) {
      if (!p.node_selector.is_mapping()) p.node_selector = Value::mapping();
      for (const Value& e : alternatives[0]) {
        p.node_selector.set(string_field(e, "key"), e.find("values")->items()[0]);
      }
      return;
    }
    Value& node_affinity = mapping_at(p.affinity, "nodeAffinity");
    Value& required = mapping_at(node_affinity, kRequired);
    Value& new_terms = sequence_at(required, "nodeSelectorTerms");
    for (std::vector<Value>& alt : alternatives) {
      Value term = Value::mapping();
      term.set("matchExpressions", Value::sequence(std::move(alt)));
      new_terms.items().push_back(std::move(term));
    }
    return;
  }
  image::PlatformSet by_selector = nodes.allowed_by_selector(p.node_selector);
  Value::Sequence kept;
  for (const Value& term : terms->items()) {
    image::PlatformSet allowed = nodes.allowed_by_term(term).intersect(by_selector);
    if (subset(allowed, S)) {
      kept.push_back(term);
      continue;
    }
    if (allowed.intersect(S).empty()) continue;  // allowed only unsupported platforms
    for (const std::vector<Value>& alt : alternatives) {
      Value narrowed = narrow(term, alt);
      if (narrowed.is_null() || nodes.allowed_by_term(narrowed).intersect(by_selector).empty()) {
        continue;
      }
      if (std::find(kept.begin(), kept.end(), narrowed) == kept.end()) {
        kept.push_back(std::move(narrowed));
      }
    }
  }
  *terms = Value::sequence(std::move(kept));
}

void add_preferences(PodPlacement& p, const image::PlatformSet& S, const NodeModel& nodes) {
  const auto& weights = nodes.config().preferred_weights;
  if (S.archs().size() < 2 || weights.empty()) return;
  for (const std::string& arch : S.archs()) {
    auto w = weights.find(arch);
    if (w == weights.end() || w->second <= 0) continue;
    Value preference = Value::mapping();
    preference.set("matchExpressions", Value::sequence(labels_of(arch, nodes)));
    Value& preferred = sequence_at(mapping_at(p.affinity, "nodeAffinity"), kPreferred);
    bool present = std::any_of(preferred.items().begin(), preferred.items().end(),
                               [&preference](const Value& item) {
                                 const Value* existing = item.find("preference");
                                 return existing != nullptr && *existing == preference;
                               });
    if (present) continue;
    Value item = Value::mapping();
    item.set("weight", Value::integer(w->second));
    item.set("preference", std::move(preference));
    preferred.items().push_back(std::move(item));
  }
}

void drop_platform_constraints(PodPlacement& p, const NodeModel& nodes) {
  if (p.node_selector.is_mapping()) {
    std::erase_if(p.node_selector.entries(),
                  [&nodes](const Value::Entry& e) { return nodes.knows(e.first); });
    if (is_empty(p.node_selector)) p.node_selector = Value();
  }
  remove_expressions(p.affinity, [&nodes](const Value& e) {
    return e.is_mapping() && nodes.knows(string_field(e, "key"));
  });
}

void remove_constraints_for(PodPlacement& p, const image::PlatformSet& S, const NodeModel& nodes) {
  Alternatives alternatives = requirements_for(S, nodes);
  if (p.node_selector.is_mapping() && alternatives.size() == 1) {
    for (const Value& e : alternatives[0]) {
      const Value::Sequence& values = e.find("values")->items();
      std::string key = string_field(e, "key");
      const Value* current = p.node_selector.find(key);
      if (values.size() == 1 && current != nullptr && *current == values[0]) {
        p.node_selector.erase(key);
      }
    }
    if (is_empty(p.node_selector)) p.node_selector = Value();
  }
  std::vector<Value> ours;
  for (const auto& alt : alternatives)
    ours.insert(ours.end(), alt.begin(), alt.end());
  remove_expressions(p.affinity, [&ours](const Value& e) {
    return std::find(ours.begin(), ours.end(), e) != ours.end();
  });
  if (Value* node_affinity = p.affinity.find("nodeAffinity"); node_affinity != nullptr) {
    if (Value* preferred = node_affinity->find(kPreferred);
        preferred != nullptr && preferred->is_sequence()) {
      const std::vector<std::string> archs = S.archs();
      std::erase_if(preferred->items(), [&](const Value& item) {
        const Value* preference = item.find("preference");
        if (preference == nullptr) return false;
        for (const std::string& arch : archs) {
          Value mine = Value::mapping();
          mine.set("matchExpressions", Value::sequence(labels_of(arch, nodes)));
          if (*preference == mine) return true;
        }
        return false;
      });
    }
    prune_affinity(p.affinity);
  }
}

}  // namespace archfit::placement::detail
