// Which kinds hold pod templates, and where.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

#include <archfit/base/key_index.hpp>

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

  // The rule for an object, or nullptr when it holds no pod template. The
  // rule added last wins among those that match.
  const KindRule* find(std::string_view api_version, std::string_view kind) const;

 private:
  // Rules by kind and apiVersion pattern, so that a configuration of 100,000
  // extra kinds is read, and every object looked up, without a scan: an
  // object's rule is one of its kind's with its apiVersion, its group's
  // pattern or "".
  struct Added {
    KindRule rule;
    std::uint64_t order = 0;
  };
  static std::string key_of(std::string_view kind, std::string_view api_version);
  const Added* at(std::string_view kind, std::string_view api_version) const;

  std::unordered_map<std::string, Added, KeyedHash, std::equal_to<>> rules_;
  // Rules of a kind added before its exclusion are gone.
  std::unordered_map<std::string, std::uint64_t, KeyedHash, std::equal_to<>> excluded_;
  std::uint64_t added_ = 0;
};

}  // namespace archfit::manifest
