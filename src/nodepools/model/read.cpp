#include <cstring>

#include <archfit/base/error.hpp>
#include <archfit/base/text.hpp>
#include <archfit/nodepools/model/instance_types.hpp>
#include <archfit/nodepools/model/read.hpp>
#include <archfit/yaml/value.hpp>

namespace archfit::nodepools {

namespace {

using yaml::fail_at;
using yaml::NodeRef;

// What a number, a boolean or a null reads as, for messages.
std::string type_of(NodeRef scalar) {
  switch (scalar.resolve().type) {
    case yaml::ScalarType::Bool:
      return "a boolean";
    case yaml::ScalarType::Int:
    case yaml::ScalarType::Float:
      return "a number";
    default:
      return "not a string";
  }
}

// A string field as Kubernetes decodes it: a null is the empty string, a
// number or a boolean is refused (the API server's decoder refuses them).
std::string text_of(NodeRef node, const std::string& what) {
  node = node.resolved();
  if (!node || node.is_null()) return {};
  if (!node.is_scalar()) fail_at(node, what + std::string(" must be a string"));
  if (!node.is_string()) {
    fail_at(node, what + " is " + type_of(node) + " (" + std::string(node.scalar()) +
                      "), where Kubernetes reads a string: quote it");
  }
  return std::string(node.scalar());
}

std::vector<std::pair<std::string, std::string>> labels_of(NodeRef mapping,
                                                           const std::string& what) {
  std::vector<std::pair<std::string, std::string>> out;
  if (!mapping || mapping.is_null()) return out;
  if (!mapping.is_mapping())
    fail_at(mapping, what + std::string(" must be a mapping of label to value"));
  for (std::size_t i = 0; i < mapping.size(); ++i) {
    std::string key = yaml::key_text(mapping.key(i));
    out.emplace_back(key, text_of(mapping.value(i), "the value of " + what + " " + key));
  }
  return out;
}

template <typename F>
void each_item(NodeRef list, const std::string& what, F&& f) {
  if (!list || list.is_null()) return;
  if (!list.is_sequence()) fail_at(list, what + std::string(" must be a list"));
  for (std::size_t i = 0; i < list.size(); ++i)
    f(list.item(i).resolved(), i);
}

Taint taint_of(NodeRef item, const std::string& what) {
  if (!item.is_mapping())
    fail_at(item, what + std::string(" must be a mapping with key and effect"));
  Taint t{text_of(yaml::lookup_path(item, {"key"}), "a taint's key"),
          text_of(yaml::lookup_path(item, {"value"}), "a taint's value"),
          text_of(yaml::lookup_path(item, {"effect"}), "a taint's effect")};
  if (t.key.empty()) fail_at(item, what + std::string(" has no key"));
  if (t.effect != "NoSchedule" && t.effect != "PreferNoSchedule" && t.effect != "NoExecute") {
    fail_at(yaml::lookup_path(item, {"effect"}) ? yaml::lookup_path(item, {"effect"}) : item,
            what + std::string(" has effect \"") + t.effect +
                "\"; use NoSchedule, PreferNoSchedule or NoExecute");
  }
  return t;
}

std::vector<Taint> taints_of(NodeRef list, const std::string& what) {
  std::vector<Taint> out;
  each_item(list, what, [&](NodeRef item, std::size_t) {
    Taint t = taint_of(item, "a taint");
    for (const Taint& other : out) {
      if (other.key == t.key && other.effect == t.effect) {
        fail_at(item, "a second taint with key " + t.key + " and effect " + t.effect +
                          ": a node carries one taint of a key and effect, and the API server "
                          "refuses such a Node");
      }
    }
    out.push_back(std::move(t));
  });
  return out;
}

// `v1`: the pool is karpenter.sh/v1, whose requirements may also use Gte and
// Lte (v1beta1 NodePools and v1alpha5 Provisioners may not).
std::vector<Requirement> requirements_of(NodeRef list, bool v1) {
  std::vector<Requirement> out;
  each_item(list, "requirements", [&](NodeRef item, std::size_t) {
    if (!item.is_mapping()) fail_at(item, "a requirement must be a mapping with key and operator");
    Requirement r;
    r.key = text_of(yaml::lookup_path(item, {"key"}), "a requirement's key");
    if (r.key.empty()) fail_at(item, "a requirement has no key");
    NodeRef op = yaml::lookup_path(item, {"operator"});
    std::string why;
    std::optional<Operator> parsed = try_parse_operator(text_of(op, "an operator"), &why);
    if (!parsed) fail_at(op ? op : item, why);
    if (!v1 && (*parsed == Operator::Gte || *parsed == Operator::Lte)) {
      fail_at(op, std::string(operator_name(*parsed)) +
                      " is an operator of karpenter.sh/v1 NodePools; this API version takes In, "
                      "NotIn, Exists, DoesNotExist, Gt or Lt");
    }
    r.op = *parsed;
    each_item(yaml::lookup_path(item, {"values"}), "values",
              [&](NodeRef v, std::size_t) { r.values.push_back(text_of(v, "a value")); });
    out.push_back(std::move(r));
  });
  return out;
}

std::optional<std::int64_t> weight_of(NodeRef node) {
  if (!node || node.is_null()) return std::nullopt;
  yaml::Resolved r = node.resolve();
  if (r.type != yaml::ScalarType::Int) fail_at(node, "weight must be an integer from 1 to 100");
  return r.integer;
}

Pool start(NodeRef at, std::string name, PoolSource source, NodeRef root) {
  Pool p;
  p.name = std::move(name);
  p.source = source;
  p.line = at.line();
  p.column = at.column();
  p.api_version = text_of(yaml::lookup_path(root, {"apiVersion"}), "apiVersion");
  p.kind = text_of(yaml::lookup_path(root, {"kind"}), "kind");
  return p;
}

Pool karpenter_pool(NodeRef root, bool node_pool) {
  std::string name = text_of(yaml::lookup_path(root, {"metadata", "name"}), "metadata.name");
  Pool p = start(root, name, node_pool ? PoolSource::NodePool : PoolSource::Provisioner, root);
  NodeRef spec = yaml::lookup_path(root, {"spec"});
  NodeRef labels = node_pool ? yaml::lookup_path(spec, {"template", "metadata", "labels"})
                             : yaml::lookup_path(spec, {"labels"});
  NodeRef body = node_pool ? yaml::lookup_path(spec, {"template", "spec"}) : spec;
  p.labels = labels_of(labels, "labels");
  p.requirements = requirements_of(yaml::lookup_path(body, {"requirements"}),
                                   p.api_version == "karpenter.sh/v1");
  p.taints = taints_of(yaml::lookup_path(body, {"taints"}), "taints");
  p.startup_taints = taints_of(yaml::lookup_path(body, {"startupTaints"}), "startupTaints");
  p.weight = weight_of(yaml::lookup_path(spec, {"weight"}));
  return p;
}

// eksctl's taints: a list of {key, value, effect}, or (older) a mapping of
// key to "value:Effect".
std::vector<Taint> eksctl_taints(NodeRef node) {
  if (!node || !node.is_mapping()) return taints_of(node, "taints");
  std::vector<Taint> out;
  for (std::size_t i = 0; i < node.size(); ++i) {
    std::string text = text_of(node.value(i).resolved(), "a taint");
    std::size_t colon = text.rfind(':');
    Taint t{yaml::key_text(node.key(i)), text.substr(0, colon),
            colon == std::string::npos ? "" : text.substr(colon + 1)};
    if (t.effect != "NoSchedule" && t.effect != "PreferNoSchedule" && t.effect != "NoExecute")
      fail_at(node.value(i),
              "a taint must read \"value:Effect\" with NoSchedule, PreferNoSchedule or NoExecute");
    out.push_back(std::move(t));
  }
  return out;
}

std::string normal_arch(std::string arch) {
  if (arch == "x86_64" || arch == "x86-64") return "amd64";
  if (arch == "aarch64") return "arm64";
  return arch;
}

Pool node_group(NodeRef root, NodeRef group, yaml::Path path, const ReadOptions& options) {
  if (!group.is_mapping()) fail_at(group, "a node group must be a mapping");
  Pool p = start(group, text_of(yaml::lookup_path(group, {"name"}), "a node group's name"),
                 PoolSource::NodeGroup, root);
  p.path = std::move(path);
  p.labels = labels_of(yaml::lookup_path(group, {"labels"}), "labels");
  p.taints = eksctl_taints(yaml::lookup_path(group, {"taints"}));
  std::string one = text_of(yaml::lookup_path(group, {"instanceType"}), "instanceType");
  if (!one.empty() && one != "mixed") p.instance_types.push_back(one);
  for (NodeRef list : {yaml::lookup_path(group, {"instanceTypes"}),
                       yaml::lookup_path(group, {"instancesDistribution", "instanceTypes"})}) {
    each_item(list, "instanceTypes", [&](NodeRef v, std::size_t) {
      p.instance_types.push_back(text_of(v, "an instance type"));
    });
  }
  std::string selected =
      text_of(yaml::lookup_path(group, {"instanceSelector", "cpuArchitecture"}), "cpuArchitecture");
  if (!selected.empty()) {
    p.instance_archs.insert(normal_arch(selected));
  } else {
    if (p.instance_types.empty()) p.instance_types.push_back("m5.large");  // eksctl's default
    for (const std::string& type : p.instance_types) {
      auto told = options.instance_archs.find(type);
      std::optional<std::string> arch = told != options.instance_archs.end()
                                            ? std::optional<std::string>(told->second)
                                            : aws_instance_arch(type);
      if (arch) {
        p.instance_archs.insert(*arch);
      } else {
        p.unknown_types.push_back(type);
      }
    }
  }
  std::string ami = text_of(yaml::lookup_path(group, {"amiFamily"}), "amiFamily");
  p.os = ami.starts_with("Windows") ? "windows" : "linux";
  return p;
}

}  // namespace

bool may_hold_pools(std::string_view text) {
  // A pool object names its API group and its kind (is_pool_object); most
  // texts name neither group, which is two scans instead of three.
  return (contains(text, "karpenter.sh/") &&
          (contains(text, "NodePool") || contains(text, "Provisioner"))) ||
         (contains(text, "eksctl.io/") && contains(text, "ClusterConfig"));
}

bool is_pool_object(NodeRef root) {
  std::string_view api = yaml::lookup_path(root, {"apiVersion"}).scalar();
  std::string_view kind = yaml::lookup_path(root, {"kind"}).scalar();
  if (api.starts_with("karpenter.sh/")) return kind == "NodePool" || kind == "Provisioner";
  return api.starts_with("eksctl.io/") && kind == "ClusterConfig";
}

std::vector<Pool> read_pools(NodeRef root, const ReadOptions& options) {
  std::vector<Pool> out;
  root = root.resolved();
  if (!is_pool_object(root)) return out;
  std::string_view kind = yaml::lookup_path(root, {"kind"}).scalar();
  if (kind == "NodePool" || kind == "Provisioner") {
    out.push_back(karpenter_pool(root, kind == "NodePool"));
    return out;
  }
  for (std::string_view list : {"nodeGroups", "managedNodeGroups"}) {
    each_item(yaml::lookup_path(root, {list}), std::string(list),
              [&](NodeRef group, std::size_t i) {
                out.push_back(
                    node_group(root, group, yaml::Path{} / list / yaml::PathStep::at(i), options));
              });
  }
  return out;
}

}  // namespace archfit::nodepools
