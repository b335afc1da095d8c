// How findings name things: platform lists, and the user's own node
// constraints in the notation of kubectl's label selectors, so that a message
// can say which constraint contradicts which image.
#pragma once

#include <string>
#include <vector>

#include <archfit/image/platform_set.hpp>
#include <archfit/yaml/value.hpp>

#include "placement/labels.hpp"

namespace archfit::placement::detail {

std::string join(const std::vector<std::string>& parts, const char* separator);

// "linux/amd64, linux/arm64"; "no platform" for the empty set.
std::string list(const image::PlatformSet& set);

// A node selector requirement: "kubernetes.io/arch in (amd64, arm64)",
// "kubernetes.io/arch notin (arm64)", "kubernetes.io/arch" (Exists),
// "!kubernetes.io/arch" (DoesNotExist), "size gt 4".
std::string describe_requirement(const yaml::Value& requirement);

// The constraints of a view's nodeSelector and required node affinity on keys
// that say which platform a node is: "nodeSelector kubernetes.io/arch=arm64",
// "node affinity kubernetes.io/arch in (arm64)", terms joined by " or ".
// "" when there are none. With `arch_only`, only keys that tell architectures
// apart count.
std::string describe_constraints(const yaml::Value& view, const NodeModel& nodes,
                                 bool arch_only = false);

}  // namespace archfit::placement::detail
