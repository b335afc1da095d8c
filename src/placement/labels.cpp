#include "placement/labels.hpp"

#include <algorithm>

namespace archfit::placement::detail {

using yaml::Value;

std::string string_field(const Value& mapping, std::string_view key) {
  const Value* v = mapping.find(key);
  return v != nullptr && v->is_string() ? v->as_string() : std::string();
}

const Value* required_terms(const Value& affinity) {
  const Value* node_affinity = affinity.find("nodeAffinity");
  if (node_affinity == nullptr) return nullptr;
  const Value* required = node_affinity->find("requiredDuringSchedulingIgnoredDuringExecution");
  if (required == nullptr) return nullptr;
  const Value* terms = required->find("nodeSelectorTerms");
  return terms != nullptr && terms->is_sequence() ? terms : nullptr;
}

// A model is made for every pod template: it holds nothing but the
// configuration, and reads its labels from there.
NodeModel::NodeModel(const Config& config) : config_(config) {}

bool NodeModel::knows(const std::string& key) const {
  if (key == kArchKey || key == kOsKey || key == kBetaArchKey || key == kBetaOsKey) return true;
  for (const auto& [arch, conventions] : config_.architectures) {
    for (const auto& [k, v] : conventions.node_labels) {
      if (k == key) return true;
    }
  }
  return false;
}

bool NodeModel::tells_arch(const std::string& key) const {
  if (key == kArchKey || key == kBetaArchKey) return true;
  for (const auto& [arch, conventions] : config_.architectures) {
    for (const auto& [k, v] : conventions.node_labels) {
      if (k == key && k != kOsKey && k != kBetaOsKey) return true;
    }
  }
  return false;
}

std::string NodeModel::label(const image::Platform& p, const std::string& key) const {
  if (key == kArchKey || key == kBetaArchKey) return p.architecture;
  if (key == kOsKey || key == kBetaOsKey) return p.os;
  auto it = config_.architectures.find(p.architecture);
  if (it == config_.architectures.end()) return {};
  for (const auto& [k, v] : it->second.node_labels) {
    if (k == key) return v;
  }
  return {};
}

bool NodeModel::expression_allows(const Value& expression, const image::Platform& p) const {
  std::string key = string_field(expression, "key");
  if (!knows(key)) return true;
  std::string op = string_field(expression, "operator");
  std::string value = label(p, key);
  bool has = !value.empty();
  bool listed = false;
  if (const Value* values = expression.find("values"); values != nullptr && values->is_sequence()) {
    for (const Value& v : values->items()) {
      if (v.is_string() && v.as_string() == value) listed = true;
    }
  }
  if (op == "In") return has && listed;
  if (op == "NotIn") return !has || !listed;
  if (op == "Exists") return has;
  if (op == "DoesNotExist") return !has;
  return true;  // Gt, Lt: numeric labels archfit does not model
}

image::PlatformSet NodeModel::allowed_by_selector(const Value& node_selector) const {
  image::PlatformSet out;
  for (const image::Platform& p : config_.cluster_platforms) {
    bool ok = true;
    if (node_selector.is_mapping()) {
      for (const auto& [key, value] : node_selector.entries()) {
        if (!knows(key)) continue;
        std::string wanted = value.is_string() ? value.as_string() : std::string();
        if (label(p, key) != wanted) ok = false;
      }
    }
    if (ok) out.insert(p);
  }
  return out;
}

image::PlatformSet NodeModel::allowed_by_term(const Value& term) const {
  image::PlatformSet out;
  const Value* expressions = term.find("matchExpressions");
  const Value* fields = term.find("matchFields");
  bool has_expressions =
      expressions != nullptr && expressions->is_sequence() && !expressions->items().empty();
  bool has_fields = fields != nullptr && fields->is_sequence() && !fields->items().empty();
  // An empty term matches no node at all.
  if (!has_expressions && !has_fields) return out;
  for (const image::Platform& p : config_.cluster_platforms) {
    bool ok = true;
    if (has_expressions) {
      for (const Value& e : expressions->items()) {
        if (e.is_mapping() && !expression_allows(e, p)) ok = false;
      }
    }
    if (ok) out.insert(p);
  }
  return out;
}

image::PlatformSet NodeModel::allowed(const Value& node_selector, const Value& affinity) const {
  image::PlatformSet by_selector = allowed_by_selector(node_selector);
  const Value* terms = required_terms(affinity);
  // An empty list is rejected by the API server; read it as no constraint.
  if (terms == nullptr || terms->items().empty()) return by_selector;
  image::PlatformSet by_terms;
  for (const Value& term : terms->items()) {
    for (const image::Platform& p : allowed_by_term(term))
      by_terms.insert(p);
  }
  return by_selector.intersect(by_terms);
}

}  // namespace archfit::placement::detail
