#include <algorithm>
#include <set>

#include <archfit/base/text.hpp>
#include <archfit/config/names.hpp>
#include <archfit/config/schema.hpp>

namespace archfit::config {

namespace {

// Paths in these keys are files on the machine that runs archfit.
std::string read_path(const Field& f) {
  return f.as_string();
}

std::vector<std::string> read_namespaces(const Field& f) {
  std::vector<std::string> out;
  for (const Field& item : f.items()) {
    std::string name = item.as_string();
    require(Syntax::DnsLabel, name, "namespace name", item);
    out.push_back(std::move(name));
  }
  return out;
}

std::vector<std::string> read_registries(const Field& f) {
  std::vector<std::string> out;
  for (const Field& item : f.items()) {
    std::string host = item.as_string();
    if (host.find("://") != std::string::npos) {
      item.fail(archfit::quoted(host) +
                " has a scheme; write the registry host as in image names, e.g. " +
                "registry.example.com:5000");
    }
    out.push_back(std::move(host));
  }
  return out;
}

}  // namespace

ParsedConfig::ParsedConfig() : config(placement::Config::defaults()) {
  config.architectures.clear();
}

const std::vector<std::string_view>& mode_names() {
  static const std::vector<std::string_view> names = {"affinity", "nodeSelector", "preferred",
                                                      "tolerationsOnly"};
  return names;
}

const std::vector<std::string_view>& on_unresolved_names() {
  static const std::vector<std::string_view> names = {"fail", "warn", "ignore"};
  return names;
}

const std::vector<KeySpec>& config_keys() {
  static const std::vector<KeySpec> keys = {
      {"clusterPlatforms", "list of platforms",
       [](const Field& f, ParsedConfig& c) {
         image::PlatformSet set = f.as_platforms();
         if (set.empty())
           f.fail("must name at least one platform, e.g. [linux/amd64, linux/arm64]");
         c.config.cluster_platforms = std::move(set);
         c.sets_cluster_platforms = true;
       }},
      {"architectures", "map of architecture to {tolerations, nodeLabels}", read_architectures},
      {"placement.mode", "affinity | nodeSelector | preferred | tolerationsOnly",
       [](const Field& f, ParsedConfig& c) {
         c.config.mode = static_cast<placement::Mode>(f.as_enum("a mode", mode_names()));
       }},
      {"placement.preferredWeights", "map of architecture to weight 1..100",
       read_preferred_weights},
      {"placement.respectExisting", "boolean",
       [](const Field& f, ParsedConfig& c) { c.config.respect_existing = f.as_bool(); }},
      {"placement.annotate", "boolean",
       [](const Field& f, ParsedConfig& c) { c.config.annotate = f.as_bool(); }},
      {"nodePools.fix", "boolean",
       [](const Field& f, ParsedConfig& c) { c.config.node_pools.fix = f.as_bool(); }},
      {"nodePools.pools", "list of {name, labels, taints, archs, os, wellKnownLabels}",
       read_declared_pools},
      {"nodePools.instanceArchs", "map of instance type to architecture", read_instance_archs},
      {"spread.profiles", "list of {name, groups, workloads, realisation, label}",
       read_spread_profiles},
      {"kinds.exclude", "list of kinds", read_kinds_exclude},
      {"kinds.extra", "list of {apiVersion, kind, podTemplate}", read_kinds_extra},
      {"namespaces.include", "list of namespaces",
       [](const Field& f, ParsedConfig& c) { c.config.namespaces_include = read_namespaces(f); }},
      {"namespaces.exclude", "list of namespaces",
       [](const Field& f, ParsedConfig& c) { c.config.namespaces_exclude = read_namespaces(f); }},
      {"selector", "label selector", read_selector},
      {"optOutAnnotation", "annotation key",
       [](const Field& f, ParsedConfig& c) {
         std::string key = f.as_string();
         require(Syntax::QualifiedName, key, "annotation key", f);
         c.config.opt_out_annotation = std::move(key);
       }},
      {"resolve.onUnresolved", "fail | warn | ignore",
       [](const Field& f, ParsedConfig& c) {
         c.config.on_unresolved =
             static_cast<placement::OnUnresolved>(f.as_enum("a policy", on_unresolved_names()));
         c.sets_on_unresolved = true;
       }},
      {"resolve.fallbackPlatforms", "list of platforms",
       [](const Field& f, ParsedConfig& c) { c.config.fallback_platforms = f.as_platforms(); }},
      {"resolve.tagTTL", "map of imagePullPolicy to duration", read_tag_ttl},
      {"resolve.concurrency", "integer 1..256",
       [](const Field& f, ParsedConfig& c) {
         c.resolve.concurrency = static_cast<int>(f.as_int(1, 256));
       }},
      {"resolve.timeout", "duration",
       [](const Field& f, ParsedConfig& c) {
         std::chrono::seconds d = f.as_duration();
         if (d.count() == 0) f.fail("must be more than 0s, e.g. 30s");
         c.resolve.timeout = d;
       }},
      {"resolve.mirrors", "map of registry to list of hosts", read_mirrors},
      {"resolve.insecureRegistries", "list of registries",
       [](const Field& f, ParsedConfig& c) { c.resolve.insecure_registries = read_registries(f); }},
      {"resolve.caFile", "path",
       [](const Field& f, ParsedConfig& c) { c.resolve.ca_file = read_path(f); }},
      {"resolve.dockerConfig", "path",
       [](const Field& f, ParsedConfig& c) { c.resolve.docker_config = read_path(f); }},
      {"resolve.credentialsDir", "path",
       [](const Field& f, ParsedConfig& c) { c.resolve.credentials_dir = read_path(f); }},
      {"featureGates.TaintTolerationComparisonOperators", "boolean",
       [](const Field& f, ParsedConfig& c) { c.config.taint_comparison_operators = f.as_bool(); }},
  };
  return keys;
}

const KeySpec* find_key(std::string_view path) {
  for (const KeySpec& k : config_keys()) {
    if (k.path == path) return &k;
  }
  return nullptr;
}

bool is_section(std::string_view path) {
  for (const KeySpec& k : config_keys()) {
    if (k.path.size() > path.size() && k.path.substr(0, path.size()) == path &&
        k.path[path.size()] == '.') {
      return true;
    }
  }
  return false;
}

std::vector<std::string_view> keys_under(std::string_view prefix) {
  std::vector<std::string_view> out;
  for (const KeySpec& k : config_keys()) {
    std::string_view rest = k.path;
    if (!prefix.empty()) {
      if (rest.size() <= prefix.size() || rest.substr(0, prefix.size()) != prefix ||
          rest[prefix.size()] != '.') {
        continue;
      }
      rest.remove_prefix(prefix.size() + 1);
    }
    std::string_view name = rest.substr(0, rest.find('.'));
    if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
  }
  return out;
}

std::vector<std::string_view> flat_keys() {
  std::vector<std::string_view> out;
  for (const KeySpec& k : config_keys()) {
    std::string_view section = k.path.substr(0, k.path.find('.'));
    if (section != k.path && std::find(out.begin(), out.end(), section) == out.end()) {
      out.push_back(section);
    }
    out.push_back(k.path);
  }
  return out;
}

placement::Config finish_config(ParsedConfig parsed, bool platforms_overridden) {
  placement::Config& config = parsed.config;
  std::vector<std::string> archs = config.cluster_platforms.archs();
  for (const ArchitectureUse& use : parsed.architecture_uses) {
    if (std::find(archs.begin(), archs.end(), use.arch) != archs.end()) continue;
    if (platforms_overridden) {
      // The file describes a wider cluster than this run targets.
      config.architectures.erase(use.arch);
      config.preferred_weights.erase(use.arch);
      continue;
    }
    throw Error(ErrorKind::Config,
                use.path + ": architecture " + archfit::quoted(use.arch) +
                    " is not in clusterPlatforms (" + config.cluster_platforms.str() +
                    "); add linux/" + use.arch + " to clusterPlatforms or remove this entry",
                use.where);
  }
  for (manifest::KindRule& rule : parsed.extra_kinds)
    config.kinds.add(std::move(rule));
  for (const std::string& kind : parsed.excluded_kinds)
    config.kinds.exclude(kind);
  config.complete();
  // A topology spread puts `key In [values]` into the pods' node affinity: over
  // a label archfit itself places pods by, no node would match.
  std::set<std::string> placed = {"kubernetes.io/arch", "kubernetes.io/os",
                                  "beta.kubernetes.io/arch", "beta.kubernetes.io/os"};
  for (const auto& [arch, a] : config.architectures) {
    for (const auto& label : a.node_labels)
      placed.insert(label.first);
  }
  for (const auto& [key, where] : parsed.topology_keys) {
    if (!placed.contains(key)) continue;
    throw Error(ErrorKind::Config,
                "spread.profiles: a topology spread cannot be over " + archfit::quoted(key) +
                    ", a label archfit places pods by architecture or OS with: its values "
                    "would be the weights' numbers, which no node has; give the profile a "
                    "label of its own (label: spread.archfit.io/<name>, the default)",
                where);
  }
  return std::move(parsed.config);
}

}  // namespace archfit::config
