#include <algorithm>
#include <utility>

#include <archfit/manifest/kinds.hpp>

namespace archfit::manifest {

KindTable KindTable::defaults() {
  KindTable table;
  auto add = [&table](const char* api_version, const char* kind, const char* path) {
    table.rules_.push_back(KindRule{api_version, kind, path});
  };
  add("v1", "Pod", "");
  add("v1", "ReplicationController", "spec.template");
  add("v1", "PodTemplate", "template");
  for (const char* group : {"apps/*", "extensions/*"}) {
    add(group, "Deployment", "spec.template");
    add(group, "ReplicaSet", "spec.template");
    add(group, "DaemonSet", "spec.template");
  }
  add("apps/*", "StatefulSet", "spec.template");
  add("batch/*", "Job", "spec.template");
  add("batch/*", "CronJob", "spec.jobTemplate.spec.template");
  // Custom resources that run pods from templates of their own.
  add("argoproj.io/*", "Rollout", "spec.template");
  add("argoproj.io/*", "Experiment", "spec.templates[].template");
  add("argoproj.io/*", "AnalysisTemplate", "spec.metrics[].provider.job.spec.template");
  add("argoproj.io/*", "ClusterAnalysisTemplate", "spec.metrics[].provider.job.spec.template");
  add("apps.openshift.io/*", "DeploymentConfig", "spec.template");
  add("v1", "DeploymentConfig", "spec.template");  // OpenShift 3's legacy API group
  return table;
}

void KindTable::add(KindRule rule) {
  // A later rule for the same apiVersion and kind replaces the earlier one.
  std::erase_if(rules_, [&rule](const KindRule& r) {
    return r.kind == rule.kind && r.api_version == rule.api_version;
  });
  rules_.push_back(std::move(rule));
}

void KindTable::exclude(std::string_view kind) {
  std::erase_if(rules_, [kind](const KindRule& r) { return r.kind == kind; });
}

namespace {
bool api_version_matches(std::string_view pattern, std::string_view api_version) {
  if (pattern.empty() || pattern == api_version) return true;
  if (pattern.size() >= 2 && pattern.substr(pattern.size() - 2) == "/*") {
    std::string_view group = pattern.substr(0, pattern.size() - 1);  // keeps the '/'
    return api_version.substr(0, group.size()) == group;
  }
  return false;
}
}  // namespace

const KindRule* KindTable::find(std::string_view api_version, std::string_view kind) const {
  // Later rules (config extras) win over the defaults.
  for (auto it = rules_.rbegin(); it != rules_.rend(); ++it) {
    if (it->kind == kind && api_version_matches(it->api_version, api_version)) return &*it;
  }
  return nullptr;
}

}  // namespace archfit::manifest
