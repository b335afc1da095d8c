#include <archfit/base/error.hpp>
#include <archfit/base/text.hpp>
#include <archfit/spread/model/distributor.hpp>
#include <archfit/yaml/path.hpp>

namespace archfit::spread {

using yaml::fail_at;
using yaml::NodeRef;

std::string Distributor::title() const {
  std::string out = "PodDistributor \"" + name + "\"";
  if (!file.empty()) out += " (" + file + ":" + std::to_string(line) + ")";
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
    fail_at(target ? target : root, "a PodDistributor needs spec.target.name");
  NodeRef list = yaml::lookup_path(spec, {"distribution"});
  if (!list.is_sequence() || list.size() == 0)
    fail_at(list ? list : root,
            "a PodDistributor needs spec.distribution, a list of {nodeLabel, weight}");
  for (std::size_t i = 0; i < list.size(); ++i) {
    NodeRef item = list.item(i).resolved();
    NodeRef label = yaml::lookup_path(item, {"nodeLabel"}).resolved();
    std::string key;
    std::string value;
    if (label.is_mapping()) {
      // As the CRD writes it: {type: spot}.
      if (label.size() != 1)
        fail_at(label, "nodeLabel names one label, e.g. {type: spot}; it names " +
                           std::to_string(label.size()));
      key = yaml::scalar_text(label.key(0).resolved());
      value = yaml::scalar_text(label.value(0).resolved());
      if (key.empty()) fail_at(label.key(0), "nodeLabel's label needs a key, e.g. {type: spot}");
    } else {
      // The key=value string archfit has read since the start.
      std::string text = yaml::scalar_text(label);
      std::size_t eq = text.find('=');
      if (eq == std::string::npos || eq == 0)
        fail_at(label ? label : item,
                "nodeLabel must read {key: value} or key=value, e.g. {type: spot}; it reads \"" +
                    text + "\"");
      key = text.substr(0, eq);
      value = text.substr(eq + 1);
    }
    NodeRef weight = yaml::lookup_path(item, {"weight"});
    yaml::Resolved w = weight.is_scalar() ? weight.resolve() : yaml::Resolved{};
    if (w.type != yaml::ScalarType::Int || w.integer < 0 || w.integer > kMaxWeight)
      fail_at(weight ? weight : item,
              "weight must be an integer from 0 to " + std::to_string(kMaxWeight));
    d.groups.push_back(StrategyGroup{std::move(key), std::move(value),
                                     Share{0, static_cast<std::uint32_t>(w.integer)}});
  }
  return d;
}

}  // namespace archfit::spread
