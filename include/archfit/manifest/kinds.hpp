// Which kinds hold pod templates, and where.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace archfit::manifest {

// A kind that holds pod templates at `pod_template`, a dotted path from the
// object in which `[]` means "every item of this list", e.g.
// "spec.templates[].template". `api_version` may be "group/*" to match every
// version of a group; "" matches any.
struct KindRule {
  std::string api_version;
  std::string kind;
  std::string pod_template;
};

class KindTable {
 public:
  // Pod, Deployment, ReplicaSet, StatefulSet, DaemonSet, Job, CronJob,
  // ReplicationController, PodTemplate, plus argoproj.io Rollout and OpenShift
  // DeploymentConfig as extra kinds.
  static KindTable defaults();

  void add(KindRule rule);              // an extra kind (config `kinds.extra`)
  void exclude(std::string_view kind);  // config `kinds.exclude`

  // The rule for an object, or nullptr when it holds no pod template.
  const KindRule* find(std::string_view api_version, std::string_view kind) const;

 private:
  std::vector<KindRule> rules_;
};

}  // namespace archfit::manifest
