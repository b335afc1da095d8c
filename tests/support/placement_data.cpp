#include "support/placement_data.hpp"

#include <string>

#include <archfit/manifest/discover.hpp>
#include <archfit/yaml/parse.hpp>

namespace archfit::testing {

yaml::Value without_placement(const yaml::Tree& tree) {
  using yaml::Value;
  yaml::Limits limits;
  limits.reject_duplicate_keys = false;
  Value data = yaml::to_value(tree.root(), limits);
  auto empty = [](const Value* v) {
    return v->is_null() || (v->is_mapping() && v->entries().empty());
  };
  auto kinds = manifest::KindTable::defaults();
  for (const manifest::Workload& w : manifest::discover(tree, kinds)) {
    for (const manifest::PodTemplate& t : w.templates) {
      std::string path = w.path;
      if (!t.path.empty()) path += (path.empty() ? "" : ".") + t.path;
      Value* at = &data;
      // Walk the same dotted path the editor uses.
      std::string rest = path;
      while (!rest.empty() && at != nullptr) {
        std::size_t dot = rest.find('.');
        std::string step = rest.substr(0, dot);
        rest = dot == std::string::npos ? "" : rest.substr(dot + 1);
        std::size_t bracket = step.find('[');
        if (!step.substr(0, bracket).empty()) at = at->find(step.substr(0, bracket));
        while (at != nullptr && bracket != std::string::npos) {
          std::size_t close = step.find(']', bracket);
          std::size_t index = std::stoul(step.substr(bracket + 1, close - bracket - 1));
          at = at->is_sequence() && index < at->items().size() ? &at->items()[index] : nullptr;
          bracket = step.find('[', close);
        }
      }
      if (at == nullptr || !at->is_mapping()) continue;
      if (Value* spec = at->find("spec"); spec != nullptr && spec->is_mapping()) {
        spec->erase("affinity");
        spec->erase("nodeSelector");
        spec->erase("tolerations");
        spec->erase("topologySpreadConstraints");
      }
      if (Value* metadata = at->find("metadata")) {
        if (metadata->is_mapping()) {
          if (Value* annotations = metadata->find("annotations")) {
            if (annotations->is_mapping()) {
              annotations->erase("archfit.io/platforms");
              annotations->erase("archfit.io/owned");
            }
            if (empty(annotations)) metadata->erase("annotations");
          }
        }
        if (empty(metadata)) at->erase("metadata");
      }
    }
  }
  return data;
}

}  // namespace archfit::testing
