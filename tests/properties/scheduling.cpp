#include "properties/scheduling.hpp"

#include <algorithm>

namespace archfit::testing {

namespace {

using yaml::Value;
using Labels = std::map<std::string, std::string>;

std::string text(const Value* v) {
  return v != nullptr && v->is_string() ? v->as_string() : std::string();
}

bool is_arch_key(const std::string& key) {
  return key == "kubernetes.io/arch" || key == "beta.kubernetes.io/arch";
}

// One node selector requirement against a node's labels. Keys the node model
// does not know can be met by some node.
bool meets(const Value& requirement, const Labels& labels, const std::set<std::string>& known) {
  std::string key = text(requirement.find("key"));
  std::string op = text(requirement.find("operator"));
  if (!known.count(key)) return true;
  auto it = labels.find(key);
  bool has = it != labels.end();
  std::vector<std::string> values;
  if (const Value* v = requirement.find("values"); v != nullptr && v->is_sequence()) {
    for (const Value& item : v->items())
      values.push_back(text(&item));
  }
  bool listed = has && std::find(values.begin(), values.end(), it->second) != values.end();
  if (op == "In") return listed;
  if (op == "NotIn") return !listed;
  if (op == "Exists") return has;
  if (op == "DoesNotExist") return !has;
  return false;
}

bool term_meets(const Value& term, const Labels& labels, const std::set<std::string>& known,
                bool ignore_arch) {
  const Value* expressions = term.find("matchExpressions");
  const Value* fields = term.find("matchFields");
  bool any = false;
  bool all = true;
  if (expressions != nullptr && expressions->is_sequence()) {
    for (const Value& r : expressions->items()) {
      if (ignore_arch && is_arch_key(text(r.find("key")))) continue;
      any = true;
      all = all && meets(r, labels, known);
    }
  }
  if (fields != nullptr && fields->is_sequence() && !fields->items().empty()) any = true;
  return any && all;  // an empty term matches no node
}

bool tolerated(const Value& toleration, const Taint& taint) {
  std::string key = text(toleration.find("key"));
  std::string op = text(toleration.find("operator"));
  std::string effect = text(toleration.find("effect"));
  if (!effect.empty() && effect != taint.effect) return false;
  if (key.empty()) return op == "Exists";
  if (key != taint.key) return false;
  return op == "Exists" || text(toleration.find("value")) == taint.value;
}

}  // namespace

std::set<std::string> schedulable(const Value& spec, const Cluster& cluster,
                                  const Constraints& c) {
  std::set<std::string> known = {"kubernetes.io/arch", "kubernetes.io/os",
                                 "beta.kubernetes.io/arch", "beta.kubernetes.io/os"};
  for (const auto& [arch, labels] : cluster.arch_labels) {
    for (const auto& [k, v] : labels)
      known.insert(k);
  }
  std::set<std::string> out;
  for (const auto& [os, arch] : cluster.platforms) {
    Labels labels = {{"kubernetes.io/arch", arch},
                     {"kubernetes.io/os", os},
                     {"beta.kubernetes.io/arch", arch},
                     {"beta.kubernetes.io/os", os}};
    if (auto it = cluster.arch_labels.find(arch); it != cluster.arch_labels.end()) {
      for (const auto& [k, v] : it->second)
        labels[k] = v;
    }
    bool ok = true;
    if (const Value* selector = spec.find("nodeSelector"); selector != nullptr && selector->is_mapping()) {
      for (const Value::Entry& e : selector->entries()) {
        if (!known.count(e.first) || (c.ignore_arch && is_arch_key(e.first))) continue;
        auto it = labels.find(e.first);
        if (it == labels.end() || it->second != text(&e.second)) ok = false;
      }
    }
    const Value* affinity = spec.find("affinity");
    const Value* node = affinity != nullptr ? affinity->find("nodeAffinity") : nullptr;
    const Value* required =
        node != nullptr ? node->find("requiredDuringSchedulingIgnoredDuringExecution") : nullptr;
    const Value* terms = required != nullptr ? required->find("nodeSelectorTerms") : nullptr;
    if (terms != nullptr && terms->is_sequence() && !terms->items().empty()) {
      bool any = false;
      bool counted = false;  // a term that still says something
      for (const Value& term : terms->items()) {
        bool only_arch = c.ignore_arch && !term_meets(term, {}, {}, true);
        if (only_arch) continue;
        counted = true;
        any = any || term_meets(term, labels, known, c.ignore_arch);
      }
      if (counted && !any) ok = false;
    }
    if (ok && c.taints) {
      const Value* tolerations = spec.find("tolerations");
      for (const Taint& taint : cluster.arch_taints.count(arch) ? cluster.arch_taints.at(arch)
                                                                : std::vector<Taint>{}) {
        if (taint.effect == "PreferNoSchedule") continue;
        bool covered = tolerations != nullptr && tolerations->is_sequence() &&
                       std::any_of(tolerations->items().begin(), tolerations->items().end(),
                                   [&taint](const Value& t) { return tolerated(t, taint); });
        if (!covered) ok = false;
      }
    }
    if (ok) out.insert(os + "/" + arch);
  }
  return out;
}

}  // namespace archfit::testing
