#include "support/placement_data.hpp"

#include <string>

#include <archfit/manifest/discover.hpp>
#include <archfit/yaml/parse.hpp>

namespace archfit::testing {

const yaml::Value* at_path(const yaml::Value& root, const std::string& path) {
  const yaml::Value* at = &root;
  std::size_t pos = 0;
  while (at != nullptr && pos < path.size()) {
    if (path[pos] == '.') ++pos;
    if (path[pos] == '[') {
      std::size_t close = path.find(']', pos);
      std::size_t index = std::stoul(path.substr(pos + 1, close - pos - 1));
      at = at->is_sequence() && index < at->items().size() ? &at->items()[index] : nullptr;
      pos = close + 1;
      continue;
    }
    std::size_t end = path.find_first_of(".[", pos);
    at = at->is_mapping() ? at->find(path.substr(pos, end - pos)) : nullptr;
    pos = end == std::string::npos ? path.size() : end;
  }
  return at;
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
      std::string path = w.path;
      if (!t.path.empty()) path += (path.empty() ? "" : ".") + t.path;
      Value* at = at_path(data, path);
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
