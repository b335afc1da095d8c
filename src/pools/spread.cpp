#include <algorithm>

#include <archfit/base/error.hpp>
#include <archfit/base/text.hpp>
#include <archfit/pools/allocation.hpp>
#include <archfit/pools/spread.hpp>

#include "pools/fields.hpp"

namespace archfit::pools {

namespace {

using detail::refuse;
using yaml::NodeRef;

}  // namespace

std::string Distributor::title() const {
  std::string out = "PodDistributor \"" + name + "\"";
  if (!file.empty()) out += " (" + file + ":" + std::to_string(line) + ")";
  return out;
}

bool SpreadProfile::selects(const std::vector<std::pair<std::string, std::string>>& labels,
                            const std::string& namespace_name) const {
  if (!assigns) return false;
  if (!namespaces.empty() &&
      std::find(namespaces.begin(), namespaces.end(), namespace_name) == namespaces.end()) {
    return false;
  }
  for (const auto& wanted : match_labels) {
    if (std::find(labels.begin(), labels.end(), wanted) == labels.end()) return false;
  }
  return true;
}

std::optional<std::vector<std::vector<std::string>>> SpreadProfile::values(std::string* why) const {
  std::vector<Share> shares;
  for (const ProfileGroup& g : groups)
    shares.push_back(g.share);
  std::optional<std::vector<std::uint32_t>> counts = try_ratio(shares, why);
  if (!counts) return std::nullopt;
  std::vector<std::vector<std::string>> out;
  std::uint32_t next = 1;
  for (std::uint32_t n : *counts) {
    std::vector<std::string>& values = out.emplace_back();
    for (std::uint32_t k = 0; k < n; ++k)
      values.push_back(std::to_string(next++));
  }
  return out;
}

std::vector<Requirement> spread_requirements(const std::string& pool,
                                             const std::vector<SpreadProfile>& profiles) {
  std::vector<Requirement> out;
  for (const SpreadProfile& p : profiles) {
    if (p.realisation != Realisation::TopologySpread) continue;
    std::optional<std::vector<std::vector<std::string>>> values = p.values();
    if (!values) continue;
    for (std::size_t i = 0; i < p.groups.size(); ++i) {
      if (p.groups[i].pool == pool && !(*values)[i].empty())
        out.push_back(Requirement{p.topology_key(), Operator::In, (*values)[i]});
    }
  }
  return out;
}

bool may_hold_distributors(std::string_view text) {
  return contains(text, "PodDistributor");
}

std::optional<Distributor> read_distributor(NodeRef root) {
  root = root.resolved();
  if (yaml::scalar_text(yaml::lookup_path(root, {"kind"})) != "PodDistributor" ||
      !yaml::scalar_text(yaml::lookup_path(root, {"apiVersion"}))
           .starts_with("versprei.versprei.io/")) {
    return std::nullopt;
  }
  Distributor d;
  d.name = yaml::scalar_text(yaml::lookup_path(root, {"metadata", "name"}));
  d.namespace_name = yaml::scalar_text(yaml::lookup_path(root, {"metadata", "namespace"}));
  d.line = root.line();
  NodeRef spec = yaml::lookup_path(root, {"spec"});
  NodeRef target = yaml::lookup_path(spec, {"target"});
  d.target_api_version = yaml::scalar_text(yaml::lookup_path(target, {"apiVersion"}));
  d.target_kind = yaml::scalar_text(yaml::lookup_path(target, {"kind"}));
  d.target_name = yaml::scalar_text(yaml::lookup_path(target, {"name"}));
  if (d.target_name.empty())
    refuse(target ? target : root, "a PodDistributor needs spec.target.name");
  NodeRef list = yaml::lookup_path(spec, {"distribution"});
  if (!list.is_sequence() || list.size() == 0)
    refuse(list ? list : root,
           "a PodDistributor needs spec.distribution, a list of {nodeLabel, weight}");
  for (std::size_t i = 0; i < list.size(); ++i) {
    NodeRef item = list.item(i).resolved();
    NodeRef label = yaml::lookup_path(item, {"nodeLabel"}).resolved();
    std::string key;
    std::string value;
    if (label.is_mapping()) {
      // As the CRD writes it: {type: spot}.
      if (label.size() != 1)
        refuse(label, "nodeLabel names one label, e.g. {type: spot}; it names " +
                          std::to_string(label.size()));
      key = yaml::scalar_text(label.key(0).resolved());
      value = yaml::scalar_text(label.value(0).resolved());
      if (key.empty()) refuse(label.key(0), "nodeLabel's label needs a key, e.g. {type: spot}");
    } else {
      // The key=value string archfit has read since the start.
      std::string text = yaml::scalar_text(label);
      std::size_t eq = text.find('=');
      if (eq == std::string::npos || eq == 0)
        refuse(label ? label : item,
               "nodeLabel must read {key: value} or key=value, e.g. {type: spot}; it reads \"" +
                   text + "\"");
      key = text.substr(0, eq);
      value = text.substr(eq + 1);
    }
    NodeRef weight = yaml::lookup_path(item, {"weight"});
    yaml::Resolved w = weight.is_scalar() ? weight.resolve() : yaml::Resolved{};
    if (w.type != yaml::ScalarType::Int || w.integer < 0 || w.integer > kMaxWeight)
      refuse(weight ? weight : item,
             "weight must be an integer from 0 to " + std::to_string(kMaxWeight));
    d.groups.push_back(StrategyGroup{std::move(key), std::move(value),
                                     Share{0, static_cast<std::uint32_t>(w.integer)}});
  }
  return d;
}

}  // namespace archfit::pools
