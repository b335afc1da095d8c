#include <algorithm>

#include <archfit/placement/config.hpp>

namespace archfit::placement {

namespace {

constexpr const char* kArchLabel = "kubernetes.io/arch";

const std::string* label_value(const std::vector<std::pair<std::string, std::string>>& labels,
                               const std::string& key) {
  for (const auto& [k, v] : labels) {
    if (k == key) return &v;
  }
  return nullptr;
}

}  // namespace

// Nodes carry the well-known label, and every architecture but amd64 is
// assumed tainted the way GKE taints arm64 nodes: tolerating a taint that no
// node has is harmless, missing one that nodes have keeps the pod off them.
Architecture Config::default_architecture(const std::string& arch) {
  Architecture out;
  out.node_labels.emplace_back(kArchLabel, arch);
  if (arch != "amd64") {
    out.tolerations.push_back(Toleration{kArchLabel, "Equal", arch, "NoSchedule", std::nullopt});
  }
  return out;
}

Config Config::defaults() {
  Config config;
  config.cluster_platforms = image::PlatformSet(
      {image::Platform{"linux", "amd64", "", ""}, image::Platform{"linux", "arm64", "", ""}});
  config.complete();
  return config;
}

void Config::complete() {
  for (const std::string& arch : cluster_platforms.archs()) {
    if (!architectures.contains(arch)) architectures.emplace(arch, default_architecture(arch));
  }
}

bool LabelSelector::matches(const std::vector<std::pair<std::string, std::string>>& labels) const {
  for (const auto& [key, value] : match_labels) {
    const std::string* have = label_value(labels, key);
    if (!have || *have != value) return false;
  }
  for (const Requirement& r : match_expressions) {
    const std::string* have = label_value(labels, r.key);
    bool listed = have && std::find(r.values.begin(), r.values.end(), *have) != r.values.end();
    bool ok = r.op == "In"       ? listed
              : r.op == "NotIn"  ? !listed
              : r.op == "Exists" ? have != nullptr
              : r.op == "DoesNotExist"
                  ? have == nullptr
                  : false;  // an operator validation let through selects nothing
    if (!ok) return false;
  }
  return true;
}

}  // namespace archfit::placement
