#include "placement/constraints.hpp"

#include <algorithm>
#include <functional>

#include "placement/tolerations.hpp"
#include "placement/view.hpp"

namespace archfit::placement::detail {

using yaml::Value;

namespace {

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

bool subset(const image::PlatformSet& a, const image::PlatformSet& b) {
  return std::all_of(a.begin(), a.end(), [&b](const image::Platform& p) { return b.contains(p); });
}

Path child(Path p, PathStep step) {
  p.push_back(std::move(step));
  return p;
}

// The expressions of `alternative` a term does not have yet.
std::vector<Value> missing_from(const Value& term, const std::vector<Value>& alternative) {
  const Value* existing = term.find("matchExpressions");
  std::vector<Value> out;
  for (const Value& e : alternative) {
    bool there =
        existing != nullptr && existing->is_sequence() &&
        std::find(existing->items().begin(), existing->items().end(), e) != existing->items().end();
    if (!there) out.push_back(e);
  }
  return out;
}

Value with(const Value& term, const std::vector<Value>& expressions) {
  Value out = term.is_mapping() ? term : Value::mapping();
  Value* list = out.find("matchExpressions");
  if (list == nullptr || !list->is_sequence())
    list = &out.set("matchExpressions", Value::sequence());
  for (const Value& e : expressions)
    list->items().push_back(e);
  return out;
}

}  // namespace

bool is_empty(const Value& v) {
  return v.is_null() || (v.is_mapping() && v.entries().empty()) ||
         (v.is_sequence() && v.items().empty());
}

const Path& terms_path() {
  static const Path path{PathStep::of("spec"), PathStep::of("affinity"),
                         PathStep::of("nodeAffinity"), PathStep::of(kRequiredKey),
                         PathStep::of("nodeSelectorTerms")};
  return path;
}
const Path& preferred_path() {
  static const Path path{PathStep::of("spec"), PathStep::of("affinity"),
                         PathStep::of("nodeAffinity"), PathStep::of(kPreferredKey)};
  return path;
}
const Path& tolerations_path() {
  static const Path path{PathStep::of("spec"), PathStep::of("tolerations")};
  return path;
}
const Path& node_selector_path() {
  static const Path path{PathStep::of("spec"), PathStep::of("nodeSelector")};
  return path;
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

bool restrict_to(Draft& d, const image::PlatformSet& S, const NodeModel& nodes, Mode mode) {
  Alternatives alternatives = requirements_for(S, nodes);
  const Value* terms = yaml::lookup(d.view(), terms_path());
  const Value* selector = yaml::lookup(d.view(), node_selector_path());
  Value node_selector = selector != nullptr ? *selector : Value();
  if (terms == nullptr || !terms->is_sequence() || terms->items().empty()) {
    bool single_values =
        alternatives.size() == 1 &&
        std::all_of(alternatives[0].begin(), alternatives[0].end(),
                    [](const Value& e) { return e.find("values")->items().size() == 1; });
    if (mode == Mode::NodeSelector && single_values) {
      for (const Value& e : alternatives[0]) {
        d.add_key(node_selector_path(), string_field(e, "key"), e.find("values")->items()[0]);
      }
      return true;
    }
    for (std::vector<Value>& alt : alternatives) {
      Value term = Value::mapping();
      term.set("matchExpressions", Value::sequence(std::move(alt)));
      d.append(terms_path(), std::move(term));
    }
    return false;
  }
  image::PlatformSet by_selector = nodes.allowed_by_selector(node_selector);
  const Value::Sequence user_terms = terms->items();
  for (std::size_t i = 0; i < user_terms.size(); ++i) {
    const Value& term = user_terms[i];
    image::PlatformSet allowed = nodes.allowed_by_term(term).intersect(by_selector);
    if (subset(allowed, S)) continue;
    // The alternatives under which this term still allows something; the
    // first goes into the term itself, each further one into a copy.
    std::vector<const std::vector<Value>*> live;
    for (const std::vector<Value>& alt : alternatives) {
      if (!nodes.allowed_by_term(with(term, alt)).intersect(by_selector).empty()) {
        live.push_back(&alt);
      }
    }
    const std::vector<Value>& first = live.empty() ? alternatives[0] : *live[0];
    Path expressions =
        child(child(terms_path(), PathStep::at(i)), PathStep::of("matchExpressions"));
    for (const Value& e : missing_from(term, first))
      d.append(expressions, e);
    for (std::size_t k = 1; k < live.size(); ++k)
      d.append(terms_path(), with(term, missing_from(term, *live[k])));
  }
  return false;
}

bool add_preferences(Draft& d, const image::PlatformSet& S, const NodeModel& nodes) {
  const auto& weights = nodes.config().preferred_weights;
  bool added = false;
  if (S.archs().size() < 2 || weights.empty()) return added;
  for (const std::string& arch : S.archs()) {
    auto w = weights.find(arch);
    if (w == weights.end() || w->second <= 0) continue;
    Value preference = Value::mapping();
    preference.set("matchExpressions", Value::sequence(labels_of(arch, nodes)));
    const Value* preferred = yaml::lookup(d.view(), preferred_path());
    bool present = preferred != nullptr && preferred->is_sequence() &&
                   std::any_of(preferred->items().begin(), preferred->items().end(),
                               [&preference](const Value& item) {
                                 const Value* existing = item.find("preference");
                                 return existing != nullptr && *existing == preference;
                               });
    if (present) continue;
    Value item = Value::mapping();
    item.set("weight", Value::integer(w->second));
    item.set("preference", std::move(preference));
    d.append(preferred_path(), std::move(item));
    added = true;
  }
  return added;
}

std::vector<Toleration> add_tolerations(Draft& d, const std::vector<Toleration>& wanted) {
  std::vector<Toleration> added;
  for (const Toleration& t : wanted) {
    const Value* tolerations = yaml::lookup(d.view(), tolerations_path());
    bool covered = tolerations != nullptr && tolerations->is_sequence() &&
                   std::any_of(tolerations->items().begin(), tolerations->items().end(),
                               [&t](const Value& e) { return tolerates(e, t); });
    if (covered) continue;
    d.append(tolerations_path(), toleration_value(t));
    added.push_back(t);
  }
  return added;
}

std::vector<Toleration> add_tolerations(Draft& d, const std::vector<std::string>& archs,
                                        const Config& config) {
  std::vector<Toleration> added;
  for (const std::string& arch : archs) {
    auto it = config.architectures.find(arch);
    if (it == config.architectures.end()) continue;
    std::vector<Toleration> more = add_tolerations(d, it->second.tolerations);
    added.insert(added.end(), more.begin(), more.end());
  }
  return added;
}

void take_arch_constraints(Draft& d, const NodeModel& nodes,
                           const std::function<std::size_t(const std::string&)>& spec_index) {
  auto on_arch_key = [&nodes](const Value& e) {
    return e.is_mapping() && nodes.tells_arch(string_field(e, "key"));
  };
  if (const Value* selector = yaml::lookup(d.view(), node_selector_path());
      selector != nullptr && selector->is_mapping() && !selector->entries().empty()) {
    const Value::Mapping& entries = selector->entries();
    std::vector<std::size_t> arch;
    for (std::size_t i = 0; i < entries.size(); ++i) {
      if (nodes.tells_arch(entries[i].first)) arch.push_back(i);
    }
    if (!arch.empty() && arch.size() == entries.size()) {
      d.take(node_selector_path(), spec_index("nodeSelector"));
    } else {
      for (auto it = arch.rbegin(); it != arch.rend(); ++it) {
        d.take(child(node_selector_path(), PathStep::of(entries[*it].first)), *it);
      }
    }
  }
  const Value* terms = yaml::lookup(d.view(), terms_path());
  if (terms == nullptr || !terms->is_sequence() || terms->items().empty()) return;
  const Value::Sequence user_terms = terms->items();
  // Per term, from the back: the whole term when nothing else is left in it.
  std::vector<std::size_t> whole;
  std::vector<std::pair<std::size_t, std::vector<std::size_t>>> partial;
  for (std::size_t i = 0; i < user_terms.size(); ++i) {
    const Value* expressions = user_terms[i].find("matchExpressions");
    const Value* fields = user_terms[i].find("matchFields");
    if (expressions == nullptr || !expressions->is_sequence()) continue;
    std::vector<std::size_t> arch;
    for (std::size_t j = 0; j < expressions->items().size(); ++j) {
      if (on_arch_key(expressions->items()[j])) arch.push_back(j);
    }
    if (arch.empty()) continue;
    bool has_fields = fields != nullptr && fields->is_sequence() && !fields->items().empty();
    if (arch.size() == expressions->items().size() && !has_fields) {
      whole.push_back(i);
    } else {
      partial.emplace_back(i, std::move(arch));
    }
  }
  if (whole.size() == user_terms.size()) {
    // Nothing of the required node affinity is left: take out the smallest
    // part that holds only it.
    const Value& affinity =
        *yaml::lookup(d.view(), yaml::Path{PathStep::of("spec"), PathStep::of("affinity")});
    const Value& node_affinity = *affinity.find("nodeAffinity");
    if (node_affinity.entries().size() == 1 && affinity.entries().size() == 1) {
      d.take({PathStep::of("spec"), PathStep::of("affinity")}, spec_index("affinity"));
    } else if (node_affinity.entries().size() == 1) {
      std::size_t at = 0;
      while (affinity.entries()[at].first != "nodeAffinity")
        ++at;
      d.take({PathStep::of("spec"), PathStep::of("affinity"), PathStep::of("nodeAffinity")}, at);
    } else {
      std::size_t at = 0;
      while (node_affinity.entries()[at].first != kRequiredKey)
        ++at;
      Path required = terms_path();
      required.pop_back();
      d.take(required, at);
    }
    return;
  }
  // From the last term to the first, so that the places recorded are those
  // of the user's list.
  std::size_t w = whole.size();
  std::size_t p = partial.size();
  for (std::size_t i = user_terms.size(); i-- > 0;) {
    if (w > 0 && whole[w - 1] == i) {
      d.take(child(terms_path(), PathStep::at(i)));
      --w;
    } else if (p > 0 && partial[p - 1].first == i) {
      const std::vector<std::size_t>& arch = partial[p - 1].second;
      const Value& term = user_terms[i];
      if (arch.size() == term.find("matchExpressions")->items().size()) {
        // Only matchFields stay.
        std::size_t at = 0;
        while (term.entries()[at].first != "matchExpressions")
          ++at;
        d.take(child(child(terms_path(), PathStep::at(i)), PathStep::of("matchExpressions")), at);
        --p;
        continue;
      }
      for (auto it = arch.rbegin(); it != arch.rend(); ++it) {
        d.take(child(child(child(terms_path(), PathStep::at(i)), PathStep::of("matchExpressions")),
                     PathStep::at(*it)));
      }
      --p;
    }
  }
}

}  // namespace archfit::placement::detail
