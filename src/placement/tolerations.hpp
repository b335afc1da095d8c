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

// True when nodes tainted like this keep pods that do not tolerate the taint
// off for good: NoSchedule and NoExecute (and an empty effect, which stands
// for every effect). PreferNoSchedule only makes the scheduler avoid them.
bool keeps_pods_off(const Toleration& taint);

// Whether pods with `tolerations` (a pod spec's list, or null) can start on
// nodes of `arch`, whose taints the configuration gives as the tolerations
// pods there need.
bool can_start_on(const yaml::Value& tolerations, const std::string& arch, const Config& config);

}  // namespace archfit::placement::detail
