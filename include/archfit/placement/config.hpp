// What archfit should write into pod templates: the configuration of
// docs/configuration.md as data. Loading it (files, environment, flags) is the
// command line's job; this is the validated result.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <archfit/image/platform_set.hpp>
#include <archfit/manifest/kinds.hpp>
#include <archfit/nodepools/model/settings.hpp>

namespace archfit::placement {

struct Toleration {
  std::string key;
  std::string op = "Equal";  // Equal | Exists
  std::string value;
  std::string effect;  // "" (all effects) | NoSchedule | PreferNoSchedule | NoExecute
  std::optional<std::int64_t> toleration_seconds;

  friend bool operator==(const Toleration&, const Toleration&) = default;
};

// Node-side conventions of one architecture.
struct Architecture {
  // What pods that may run on nodes of this architecture must tolerate.
  std::vector<Toleration> tolerations;
  // How nodes of this architecture are selected (default kubernetes.io/arch=<arch>).
  std::vector<std::pair<std::string, std::string>> node_labels;
};

enum class Mode { Affinity, NodeSelector, Preferred, TolerationsOnly };

// A Kubernetes label selector (matchLabels and matchExpressions).
struct LabelSelector {
  struct Requirement {
    std::string key;
    std::string op;  // In | NotIn | Exists | DoesNotExist
    std::vector<std::string> values;
  };
  std::vector<std::pair<std::string, std::string>> match_labels;
  std::vector<Requirement> match_expressions;

  bool empty() const { return match_labels.empty() && match_expressions.empty(); }
  bool matches(const std::vector<std::pair<std::string, std::string>>& labels) const;
};

// What to do with an image whose platforms cannot be found.
enum class OnUnresolved { Fail, Warn, Ignore };

struct Config {
  image::PlatformSet cluster_platforms;  // default linux/amd64,linux/arm64
  // By architecture ("arm64"). After complete(), every architecture of
  // cluster_platforms has an entry.
  std::map<std::string, Architecture> architectures;

  Mode mode = Mode::Affinity;
  std::map<std::string, int> preferred_weights;  // arch -> 1..100
  bool respect_existing = true;
  bool annotate = true;

  manifest::KindTable kinds = manifest::KindTable::defaults();
  std::vector<std::string> namespaces_include;  // empty = all
  std::vector<std::string> namespaces_exclude;
  LabelSelector selector;  // on the workload's labels; empty = all
  std::string opt_out_annotation = "archfit.io/skip";

  // What to do with an image whose platforms cannot be found
  // (resolve.onUnresolved), and the platforms assumed for it instead
  // (resolve.fallbackPlatforms; empty: its templates are left alone).
  OnUnresolved on_unresolved = OnUnresolved::Warn;
  image::PlatformSet fallback_platforms;
  // Why on_unresolved is fail when nothing set it: an unattended run
  // ("offline", "CI=true", "pre-commit", ...); "" when it was set or is not
  // fail. And what a finding about an unresolved image tells to do: commands
  // that work where this run does (offline: no registry).
  std::string unattended;
  std::string unresolved_hint =
      "run archfit lock; without a registry, archfit lock --set IMAGE=PLATFORMS, or archfit "
      "images --format lock > archfit.lock and fill in the platforms; or set "
      "resolve.fallbackPlatforms";

  // Node pools declared in the configuration, and what fix may do to those
  // of the input (nodePools).
  nodepools::Settings node_pools;

  // The cluster enables the feature gate TaintTolerationComparisonOperators
  // (featureGates): tolerations with operators Gt and Lt are accepted and
  // compare numerically.
  bool taint_comparison_operators = false;

  // The defaults docs/configuration.md gives, completed.
  static Config defaults();

  // The conventions assumed for an architecture the configuration does not
  // describe: node label kubernetes.io/arch=<arch> and, except for amd64, the
  // toleration kubernetes.io/arch=<arch>:NoSchedule.
  static Architecture default_architecture(const std::string& arch);

  // Gives every architecture of cluster_platforms that has no entry the
  // default_architecture() conventions. Entries that exist are kept as they are.
  void complete();
};

// The annotation that records the platforms archfit placed a template for.
inline constexpr const char* kPlatformsAnnotation = "archfit.io/platforms";

}  // namespace archfit::placement
