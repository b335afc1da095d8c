#include "placement/spread.hpp"

#include <algorithm>

#include "placement/constraints.hpp"
#include "placement/view.hpp"
#include "placement/wording.hpp"

namespace archfit::placement::detail {

using yaml::Value;

namespace {

Value in_expression(const std::string& key, const std::vector<std::string>& values) {
  Value e = Value::mapping();
  e.set("key", Value::string(key));
  e.set("operator", Value::string("In"));
  Value list = Value::sequence();
  for (const std::string& v : values)
    list.items().push_back(Value::string(v));
  e.set("values", std::move(list));
  return e;
}

Value constraint(const spread::TopologySpread& spread) {
  Value c = Value::mapping();
  c.set("maxSkew", Value::integer(1));
  c.set("topologyKey", Value::string(spread.key));
  c.set("whenUnsatisfiable", Value::string("DoNotSchedule"));
  Value labels = Value::mapping();
  for (const auto& [k, v] : spread.match_labels)
    labels.set(k, Value::string(v));
  Value selector = Value::mapping();
  selector.set("matchLabels", std::move(labels));
  c.set("labelSelector", std::move(selector));
  return c;
}

bool spreads_over(const Value& list, const std::string& key) {
  return std::any_of(list.items().begin(), list.items().end(), [&key](const Value& c) {
    const Value* k = c.find("topologyKey");
    return k != nullptr && k->is_string() && k->as_string() == key;
  });
}

}  // namespace

const Path& spread_constraints_path() {
  static const Path path{PathStep::of("spec"), PathStep::of("topologySpreadConstraints")};
  return path;
}

SpreadOutcome add_topology_spread(Draft& d, const spread::TopologySpread& spread,
                                  const std::vector<std::string>& archs) {
  SpreadOutcome out;
  const Value* existing = yaml::lookup(d.view(), spread_constraints_path());
  if (existing != nullptr && !existing->is_null() && !existing->is_sequence()) {
    out.refused = "spec.topologySpreadConstraints is not a list";
    return out;
  }
  for (const spread::TopologySpread::Group& g : spread.groups) {
    bool runs = g.archs.empty() || std::any_of(archs.begin(), archs.end(),
                                               [&g](const auto& a) { return g.archs.contains(a); });
    std::string name = "pool \"" + g.pool + "\"";
    if (!runs) {
      std::vector<std::string> has(g.archs.begin(), g.archs.end());
      out.excluded.push_back(name + " (its nodes run " + join(has, ", ") + ")");
      continue;
    }
    if (g.values.empty()) continue;  // weight 0: no pods go there
    out.kept.push_back(name + " (" + spread.key + "=" + join(g.values, ", ") + ")");
    out.values.insert(out.values.end(), g.values.begin(), g.values.end());
  }
  if (out.values.empty()) {
    out.refused = out.excluded.empty() ? "no group has a weight"
                                       : "no group's pool runs the images (" + join(archs, ", ") +
                                             "): " + join(out.excluded, ", ");
    return out;
  }
  const Value expression = in_expression(spread.key, out.values);
  const Value* terms = yaml::lookup(d.view(), terms_path());
  if (terms == nullptr || !terms->is_sequence() || terms->items().empty()) {
    Value term = Value::mapping();
    term.set("matchExpressions", Value::sequence({expression}));
    d.append(terms_path(), std::move(term));
    out.added = true;
  } else {
    const std::size_t count = terms->items().size();
    for (std::size_t i = 0; i < count; ++i) {
      const Value& term = yaml::lookup(d.view(), terms_path())->items()[i];
      const Value* list = term.find("matchExpressions");
      if (list != nullptr && list->is_sequence() &&
          std::find(list->items().begin(), list->items().end(), expression) !=
              list->items().end()) {
        continue;
      }
      Path at = terms_path();
      at.push_back(PathStep::at(i));
      at.push_back(PathStep::of("matchExpressions"));
      d.append(at, expression);
      out.added = true;
    }
  }
  existing = yaml::lookup(d.view(), spread_constraints_path());
  if (existing == nullptr || !existing->is_sequence() || !spreads_over(*existing, spread.key)) {
    d.append(spread_constraints_path(), constraint(spread));
    out.added = true;
  }
  return out;
}

}  // namespace archfit::placement::detail
