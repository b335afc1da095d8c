// Which cluster platforms a pod's own node constraints let it run on. Nodes
// of a platform carry kubernetes.io/arch and kubernetes.io/os (and their beta
// forms) plus the node labels the configuration gives its architecture;
// expressions on any other key cannot be judged here and count as satisfied.
#pragma once

#include <string>

#include <archfit/image/platform.hpp>
#include <archfit/image/platform_set.hpp>
#include <archfit/placement/config.hpp>
#include <archfit/yaml/value.hpp>

namespace archfit::placement::detail {

inline constexpr const char* kArchKey = "kubernetes.io/arch";
inline constexpr const char* kOsKey = "kubernetes.io/os";
inline constexpr const char* kBetaArchKey = "beta.kubernetes.io/arch";
inline constexpr const char* kBetaOsKey = "beta.kubernetes.io/os";

class NodeModel {
 public:
  explicit NodeModel(const Config& config);

  // True when the key's value on a node follows from its platform.
  bool knows(const std::string& key) const;
  // True when the key tells architectures apart (kubernetes.io/arch, its beta
  // form, a node label the configuration gives an architecture); the OS keys
  // do not.
  bool tells_arch(const std::string& key) const;
  // The label's value on nodes of this platform; "" when they do not carry it.
  std::string label(const image::Platform& p, const std::string& key) const;

  // Platforms of the cluster allowed by a nodeSelector map (null: all).
  image::PlatformSet allowed_by_selector(const yaml::Value& node_selector) const;
  // Platforms allowed by one nodeSelectorTerm.
  image::PlatformSet allowed_by_term(const yaml::Value& term) const;
  // Platforms allowed by the pod spec's nodeSelector and required node
  // affinity together.
  image::PlatformSet allowed(const yaml::Value& node_selector, const yaml::Value& affinity) const;

  const Config& config() const { return config_; }

 private:
  bool expression_allows(const yaml::Value& expression, const image::Platform& p) const;

  const Config& config_;
};

// The required terms of an affinity value (spec.affinity), or nullptr.
const yaml::Value* required_terms(const yaml::Value& affinity);

// The string at `key` of a mapping value, "" when absent or not a string.
std::string string_field(const yaml::Value& mapping, std::string_view key);

}  // namespace archfit::placement::detail
