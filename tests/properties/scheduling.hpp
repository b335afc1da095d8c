// Where the scheduler could put a pod, decided from its pod spec the way
// Kubernetes does it, for the property tests. Written from the Kubernetes
// rules, not from archfit's code: a node of each cluster platform carries
// kubernetes.io/arch and kubernetes.io/os (and their beta forms) plus the
// labels the test's configuration gives its architecture, and the taints it
// gives it. A requirement on any other label, and matchFields, can be met by
// some node of every platform.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include <archfit/yaml/value.hpp>

namespace archfit::testing {

struct Taint {
  std::string key;
  std::string value;
  std::string effect;
};

struct Cluster {
  std::vector<std::pair<std::string, std::string>> platforms;  // (os, arch)
  std::map<std::string, std::map<std::string, std::string>> arch_labels;  // arch -> extra labels
  std::map<std::string, std::vector<Taint>> arch_taints;                  // arch -> taints
};

struct Constraints {
  bool taints = true;        // tolerations must cover NoSchedule/NoExecute taints
  bool ignore_arch = false;  // the pod's own architecture constraints do not count
};

// "os/arch" of every platform the pod spec (a mapping) can be scheduled on.
std::set<std::string> schedulable(const yaml::Value& pod_spec, const Cluster& cluster,
                                  const Constraints& constraints);

}  // namespace archfit::testing
