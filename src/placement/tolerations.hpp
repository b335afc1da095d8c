// Tolerations as Kubernetes matches them against taints.
#pragma once

#include <string>

#include <archfit/placement/config.hpp>
#include <archfit/yaml/value.hpp>

namespace archfit::placement::detail {

// The toleration as it is written in a pod spec (empty fields left out).
yaml::Value toleration_value(const Toleration& t);

// True when the existing toleration (a pod spec item) already tolerates
// everything `wanted` tolerates. An empty-key `operator: Exists` tolerates
// every taint; an empty effect matches every effect.
bool tolerates(const yaml::Value& existing, const Toleration& wanted);

// key=value:effect, as kubectl taint writes it.
std::string describe(const Toleration& t);

}  // namespace archfit::placement::detail
