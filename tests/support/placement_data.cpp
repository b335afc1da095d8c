#include "support/placement_data.hpp"

#include <string>

#include <archfit/manifest/discover.hpp>
#include <archfit/yaml/parse.hpp>
#include <archfit/yaml/path.hpp>

namespace archfit::testing {

const yaml::Value* at_path(const yaml::Value& root, const std::string& path) {
  return yaml::lookup(root, yaml::parse_path(path));
}

yaml::Value* at_path(yaml::Value& root, const std::string& path) {
  return const_cast<yaml::Value*>(at_path(static_cast<const yaml::Value&>(root), path));
}

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
      Value* at = yaml::lookup(data, w.path + t.path);
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
