#include <algorithm>
#include <array>
#include <unordered_map>

#include <archfit/base/key_index.hpp>
#include <archfit/nodepools/model/instance_types.hpp>
#include <archfit/nodepools/model/labels.hpp>
#include <archfit/nodepools/model/pool.hpp>

namespace archfit::nodepools {

namespace {

bool is_arch_key(std::string_view key) {
  return key == kArchLabel || key == "beta.kubernetes.io/arch";
}
bool is_os_key(std::string_view key) {
  return key == "kubernetes.io/os" || key == "beta.kubernetes.io/os";
}
bool is_type_key(std::string_view key) {
  return key == "node.kubernetes.io/instance-type" || key == "beta.kubernetes.io/instance-type";
}

// What a (normalized) key is on a pool's nodes when nothing of the pool names it.
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
  switch (pool.label_kind(key)) {
    case LabelKind::Always:
      return Domain::present();
    case LabelKind::Optional:
      return Domain::any();
    case LabelKind::Restricted:
    case LabelKind::Undefined:
      break;
  }
  return Domain::absent();
}

// The architectures of the instance types a Karpenter pool's requirements
// allow, when every type or family they name is one archfit knows.
std::optional<std::set<std::string>> required_instance_archs(const Pool& pool) {
  std::optional<std::set<std::string>> out;
  for (const Requirement& r : pool.requirements) {
    std::string_view key = normalized_label(r.key);
    bool family = key == "karpenter.k8s.aws/instance-family";
    if (r.op != Operator::In || (!family && !is_type_key(key))) continue;
    std::set<std::string> archs;
    for (const std::string& v : r.values) {
      std::optional<std::string> arch = aws_instance_arch(family ? v + ".large" : v);
      if (!arch) return std::nullopt;
      archs.insert(*arch);
    }
    if (out) {
      std::erase_if(*out, [&archs](const std::string& a) { return !archs.contains(a); });
    } else {
      out = std::move(archs);
    }
  }
  return out;
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

LabelKind Pool::label_kind(std::string_view key) const {
  key = normalized_label(key);
  if (karpenter()) return karpenter_label_kind(key, source == PoolSource::Provisioner);
  LabelKind fixed = fixed_label_kind(key);
  // A declared pool whose nodes lack a well-known label (a bare-metal pool
  // without zones): it is not there.
  if (fixed == LabelKind::Always && well_known && !well_known->contains(std::string(key))) {
    return LabelKind::Undefined;
  }
  return fixed;
}

namespace {

// What a pool's own labels and requirements say of a (normalized) key: the
// last label's value, narrowed by every requirement; nullopt when none names it.
template <typename Labels, typename Requirements>
std::optional<Domain> defined_domain(Labels labels, Requirements requirements) {
  std::optional<Domain> d;
  for (const std::string* v : labels)
    d = Domain::one_of({*v});  // the last one, as a mapping read twice gives
  for (const Requirement* r : requirements) {
    if (!d) d = Domain::any();
    d->narrow(*r);
  }
  return d;
}

// The domain of a key on a pool's nodes, from what the pool defines of it
// (nullopt: nothing) and the architectures its required instance types have.
Domain finish_domain(const Pool& pool, std::string_view key, std::optional<Domain> defined,
                     const std::optional<std::set<std::string>>& instance_archs) {
  Domain d = Domain::any();
  if (!defined) {
    d = default_domain(pool, key);
  } else {
    d = std::move(*defined);
    // A requirement that allows the label's absence does not take it off
    // nodes that always carry it.
    if (pool.label_kind(key) == LabelKind::Always && d.allows_absent()) d.narrow(Domain::present());
    if (pool.source == PoolSource::NodeGroup && is_arch_key(key))
      d.narrow(default_domain(pool, key));
  }
  // Where the label is always there, its value is one of the known ones.
  const std::set<std::string>* known = known_label_values(key);
  if (known != nullptr && !d.allows_absent()) {
    std::set<std::string> values = *known;
    // Reserved capacity came with Karpenter's v1 API.
    if (pool.karpenter() && pool.api_version != "karpenter.sh/v1") values.erase("reserved");
    d.narrow(Domain::one_of(std::move(values)));
  }
  if (pool.karpenter() && is_arch_key(key) && instance_archs) {
    d.narrow(Domain::one_of(*instance_archs));
  }
  return d;
}

}  // namespace

bool Pool::defines(std::string_view key) const {
  key = normalized_label(key);
  for (const auto& [k, v] : labels) {
    if (normalized_label(k) == key) return true;
  }
  return std::any_of(requirements.begin(), requirements.end(),
                     [key](const Requirement& r) { return normalized_label(r.key) == key; });
}

Domain Pool::domain(std::string_view raw) const {
  std::string_view key = normalized_label(raw);
  std::vector<const std::string*> values;
  for (const auto& [k, v] : labels) {
    if (normalized_label(k) == key) values.push_back(&v);
  }
  std::vector<const Requirement*> narrowing;
  for (const Requirement& r : requirements) {
    if (normalized_label(r.key) == key) narrowing.push_back(&r);
  }
  return finish_domain(
      *this, key, defined_domain(values, narrowing),
      karpenter() && is_arch_key(key) ? required_instance_archs(*this) : std::nullopt);
}

PoolKeys::PoolKeys(const Pool& pool) : pool_(&pool) {
  struct Entries {
    std::vector<const std::string*> labels;
    std::vector<const Requirement*> requirements;
  };
  std::unordered_map<std::string_view, Entries, KeyedHash> by_key;
  for (const auto& [k, v] : pool.labels)
    by_key[normalized_label(k)].labels.push_back(&v);
  for (const Requirement& r : pool.requirements)
    by_key[normalized_label(r.key)].requirements.push_back(&r);
  if (pool.karpenter()) instance_archs_ = required_instance_archs(pool);
  for (const auto& [key, entries] : by_key) {
    defined_.emplace(std::string(key),
                     finish_domain(pool, key, defined_domain(entries.labels, entries.requirements),
                                   is_arch_key(key) ? instance_archs_ : std::nullopt));
  }
}

bool PoolKeys::defines(std::string_view key) const {
  return defined_.find(normalized_label(key)) != defined_.end();
}

Domain PoolKeys::domain(std::string_view raw) const {
  std::string_view key = normalized_label(raw);
  auto it = defined_.find(key);
  if (it != defined_.end()) return it->second;
  return finish_domain(*pool_, key, std::nullopt,
                       is_arch_key(key) ? instance_archs_ : std::nullopt);
}

std::set<std::string> PoolKeys::archs() const {
  Domain d = domain(kArchLabel);
  std::set<std::string> out;
  for (const std::string& a : kNodeArchs) {
    if (d.allows(a)) out.insert(a);
  }
  return out;
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

}  // namespace archfit::nodepools
