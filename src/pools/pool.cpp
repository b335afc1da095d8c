#include <algorithm>
#include <array>

#include <archfit/pools/pool.hpp>

namespace archfit::pools {

namespace {

constexpr std::array<std::string_view, 16> kWellKnown = {
    "kubernetes.io/arch",
    "kubernetes.io/os",
    "kubernetes.io/hostname",
    "node.kubernetes.io/instance-type",
    "node.kubernetes.io/windows-build",
    "topology.kubernetes.io/zone",
    "topology.kubernetes.io/region",
    "karpenter.sh/capacity-type",
    "karpenter.sh/nodepool",
    "karpenter.sh/provisioner-name",
    "beta.kubernetes.io/arch",
    "beta.kubernetes.io/os",
    "beta.kubernetes.io/instance-type",
    "failure-domain.beta.kubernetes.io/zone",
    "failure-domain.beta.kubernetes.io/region",
    "eks.amazonaws.com/nodegroup",
};

// Labels a cloud provider's Karpenter gives its nodes.
constexpr std::array<std::string_view, 4> kWellKnownPrefixes = {
    "karpenter.k8s.aws/", "topology.k8s.aws/", "karpenter.azure.com/", "karpenter.k8s.gcp/"};

bool is_arch_key(std::string_view key) {
  return key == kArchLabel || key == "beta.kubernetes.io/arch";
}
bool is_os_key(std::string_view key) {
  return key == "kubernetes.io/os" || key == "beta.kubernetes.io/os";
}
bool is_type_key(std::string_view key) {
  return key == "node.kubernetes.io/instance-type" || key == "beta.kubernetes.io/instance-type";
}

// What a key is on a pool's nodes when nothing of the pool names it.
Domain default_domain(const Pool& pool, std::string_view key) {
  if (pool.source == PoolSource::NodePool && key == "karpenter.sh/nodepool")
    return Domain::one_of({pool.name});
  if (pool.source == PoolSource::Provisioner && key == "karpenter.sh/provisioner-name")
    return Domain::one_of({pool.name});
  if (pool.source == PoolSource::NodeGroup) {
    if (key == "eks.amazonaws.com/nodegroup" || key == "alpha.eksctl.io/nodegroup-name")
      return Domain::one_of({pool.name});
    if (is_arch_key(key) && !pool.instance_archs.empty() && pool.unknown_types.empty())
      return Domain::one_of(pool.instance_archs);
    if (is_type_key(key) && !pool.instance_types.empty())
      return Domain::one_of({pool.instance_types.begin(), pool.instance_types.end()});
  }
  if (is_os_key(key) && pool.os) return Domain::one_of({*pool.os});
  if (is_well_known_label(key)) return Domain::present();
  return Domain::absent();
}

}  // namespace

std::string describe(const Taint& t) {
  std::string out = t.key;
  if (!t.value.empty()) out += "=" + t.value;
  return out + ":" + t.effect;
}

std::string_view source_name(PoolSource source) {
  switch (source) {
    case PoolSource::NodePool:
      return "NodePool";
    case PoolSource::Provisioner:
      return "Provisioner";
    case PoolSource::NodeGroup:
      return "node group";
    case PoolSource::Declared:
      return "declared pool";
  }
  return "pool";
}

bool is_well_known_label(std::string_view key) {
  if (std::find(kWellKnown.begin(), kWellKnown.end(), key) != kWellKnown.end()) return true;
  return std::any_of(kWellKnownPrefixes.begin(), kWellKnownPrefixes.end(),
                     [key](std::string_view p) { return key.starts_with(p); });
}

bool Pool::defines(std::string_view key) const {
  for (const auto& [k, v] : labels) {
    if (k == key) return true;
  }
  return std::any_of(requirements.begin(), requirements.end(),
                     [key](const Requirement& r) { return r.key == key; });
}

Domain Pool::domain(std::string_view key) const {
  bool defined = false;
  Domain d = Domain::any();
  for (const auto& [k, v] : labels) {
    if (k != key) continue;
    d = Domain::one_of({v});  // the last one, as a mapping read twice gives
    defined = true;
  }
  for (const Requirement& r : requirements) {
    if (r.key != key) continue;
    d.narrow(r);
    defined = true;
  }
  if (!defined) return default_domain(*this, key);
  // A requirement that allows the label's absence does not take it off
  // nodes that always carry it.
  if (is_well_known_label(key) && d.allows_absent()) d.narrow(Domain::present());
  if (source == PoolSource::NodeGroup && is_arch_key(key)) d.narrow(default_domain(*this, key));
  return d;
}

std::set<std::string> Pool::archs(const std::set<std::string>& cluster) const {
  Domain d = domain(kArchLabel);
  std::set<std::string> out;
  for (const std::string& a : cluster) {
    if (d.allows(a)) out.insert(a);
  }
  return out;
}

std::set<std::string> Pool::archs() const {
  return archs(kNodeArchs);
}

std::string Pool::title() const {
  std::string out = std::string(source_name(source)) + " \"" + name + "\"";
  if (!file.empty()) {
    out += " (" + file;
    if (line != 0) out += ":" + std::to_string(line);
    out += ")";
  }
  return out;
}

}  // namespace archfit::pools
