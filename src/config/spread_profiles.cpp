// The reader of spread.profiles: archfit's own weighted spreads.
#include <optional>
#include <set>

#include <archfit/config/names.hpp>
#include <archfit/config/schema.hpp>
#include <archfit/spread/model/allocation.hpp>

namespace archfit::config {

namespace {

spread::ProfileGroup read_group(const Field& item) {
  spread::ProfileGroup g;
  for (const Field::Entry& e : item.entries({"nodeLabel", "pool", "base", "weight"})) {
    if (e.value.is_null()) continue;
    if (e.key == "nodeLabel") {
      std::string text = e.value.as_string();
      std::size_t eq = text.find('=');
      if (eq == std::string::npos || eq == 0)
        e.value.fail("must read key=value, e.g. karpenter.sh/capacity-type=spot");
      g.label_key = text.substr(0, eq);
      g.label_value = text.substr(eq + 1);
      require(Syntax::QualifiedName, g.label_key, "label key", e.value);
      require(Syntax::LabelValue, g.label_value, "label value", e.value);
    } else if (e.key == "pool") {
      g.pool = e.value.as_string();
    } else if (e.key == "base") {
      g.share.base = static_cast<std::uint32_t>(e.value.as_int(0, spread::kMaxReplicas));
    } else {
      g.share.weight = static_cast<std::uint32_t>(e.value.as_int(0, spread::kMaxWeight));
    }
  }
  if (g.label_key.empty() == g.pool.empty())
    item.fail(
        "a group names either nodeLabel (key=value) or pool, e.g. {pool: spot-arm, weight: 3}");
  return g;
}

}  // namespace

void read_spread_profiles(const Field& value, ParsedConfig& out) {
  std::vector<spread::SpreadProfile>& profiles = out.config.node_pools.spread_profiles;
  profiles.clear();
  std::set<std::string> names;
  for (const Field& item : value.items()) {
    spread::SpreadProfile p;
    std::optional<Field> label_field;
    for (const Field::Entry& e :
         item.entries({"name", "groups", "workloads", "realisation", "label"})) {
      if (e.value.is_null()) continue;
      if (e.key == "realisation") {
        p.realisation = e.value.as_enum("a realisation", {"split", "topologySpread"}) == 0
                            ? spread::Realisation::Split
                            : spread::Realisation::TopologySpread;
      } else if (e.key == "label") {
        p.label = e.value.as_string();
        require(Syntax::QualifiedName, p.label, "label key", e.value);
        label_field = e.value;
      } else if (e.key == "name") {
        p.name = e.value.as_string();
        if (!names.insert(p.name).second) e.value.fail("names a profile twice: \"" + p.name + "\"");
      } else if (e.key == "groups") {
        for (const Field& g : e.value.items())
          p.groups.push_back(read_group(g));
      } else {
        p.assigns = true;
        for (const Field::Entry& w : e.value.entries({"matchLabels", "namespaces"})) {
          if (w.value.is_null()) continue;
          if (w.key == "matchLabels") {
            p.match_labels = read_labels(w.value);
          } else {
            p.namespaces = w.value.as_strings();
          }
        }
      }
    }
    if (p.name.empty()) item.fail("a profile needs a name, e.g. {name: spot-heavy, groups: [...]}");
    if (p.groups.empty())
      item.fail("a profile needs groups, e.g. [{nodeLabel: type=default, base: 1, weight: 1}]");
    if (p.groups.size() > spread::kMaxGroups)
      item.fail("has more than " + std::to_string(spread::kMaxGroups) + " groups");
    if (p.realisation == spread::Realisation::Split && label_field)
      label_field->fail(
          "only a topologySpread profile has a label; add realisation: topologySpread");
    if (p.realisation == spread::Realisation::TopologySpread) {
      for (const spread::ProfileGroup& g : p.groups) {
        if (g.pool.empty())
          item.fail(
              "a topologySpread profile's groups name Karpenter pools (pool: NAME), whose "
              "nodes get the label values; " +
              g.label_key + "=" + g.label_value + " is a node label");
      }
      if (!label_field)
        require(Syntax::QualifiedName, p.topology_key(), "label key (from the profile's name)",
                item);
      std::string why;
      if (!p.values(&why)) item.fail(why);
      out.topology_keys.emplace_back(p.topology_key(),
                                     label_field ? label_field->where() : item.where());
    }
    profiles.push_back(std::move(p));
  }
}

}  // namespace archfit::config
