#include <utility>

#include <archfit/manifest/kinds.hpp>

namespace archfit::manifest {

KindTable KindTable::defaults() {
  KindTable table;
  auto add = [&table](const char* api_version, const char* kind, const char* path) {
    table.add(KindRule{api_version, kind, path});
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

std::string KindTable::key_of(std::string_view kind, std::string_view api_version) {
  // A kind holds no NUL: the key is unambiguous.
  std::string key;
  key.reserve(kind.size() + 1 + api_version.size());
  key.append(kind).push_back('\0');
  key.append(api_version);
  return key;
}

void KindTable::add(KindRule rule) {
  // A later rule for the same apiVersion and kind replaces the earlier one.
  std::string key = key_of(rule.kind, rule.api_version);
  rules_.insert_or_assign(std::move(key), Added{std::move(rule), ++added_});
}

void KindTable::exclude(std::string_view kind) {
  excluded_.insert_or_assign(std::string(kind), added_);
}

const KindTable::Added* KindTable::at(std::string_view kind, std::string_view api_version) const {
  auto it = rules_.find(key_of(kind, api_version));
  if (it == rules_.end()) return nullptr;
  auto gone = excluded_.find(kind);
  if (gone != excluded_.end() && it->second.order <= gone->second) return nullptr;
  return &it->second;
}

const KindRule* KindTable::find(std::string_view api_version, std::string_view kind) const {
  // The patterns that match: the apiVersion itself, "" and, for each '/' in
  // it, what comes before with "/*" ("apps/*" for "apps/v1").
  const Added* best = at(kind, api_version);
  auto consider = [&best](const Added* a) {
    if (a != nullptr && (best == nullptr || a->order > best->order)) best = a;
  };
  if (!api_version.empty()) consider(at(kind, ""));
  std::string pattern;
  for (std::size_t slash = api_version.find('/'); slash != std::string_view::npos;
       slash = api_version.find('/', slash + 1)) {
    pattern.assign(api_version.substr(0, slash + 1)).push_back('*');
    consider(at(kind, pattern));
  }
  return best == nullptr ? nullptr : &best->rule;
}

}  // namespace archfit::manifest
