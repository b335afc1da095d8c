// Deciding what one pod template should carry (DESIGN.md section 6): from its
// images' platforms and the cluster's, the node affinity, nodeSelector,
// tolerations and annotation it needs, plus the findings lint reports.
// Everything here is data; edit/ turns a plan into text.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <archfit/image/platform_set.hpp>
#include <archfit/image/reference.hpp>
#include <archfit/manifest/workload.hpp>
#include <archfit/placement/config.hpp>
#include <archfit/placement/finding.hpp>
#include <archfit/resolve/resolver.hpp>
#include <archfit/yaml/value.hpp>

namespace archfit::placement {

// The new value of one field of the pod template. `value` null with `remove`
// set means: take the key out.
struct FieldChange {
  std::vector<std::string> path;  // from the pod template, e.g. {"spec", "affinity"}
  yaml::Value value;
  bool remove = false;
};

struct TemplatePlan {
  std::vector<FieldChange> changes;  // empty: leave the template as it is
  std::vector<Finding> findings;
  image::PlatformSet platforms;  // S: where every image runs, within the cluster
};

// Where a template is, for findings.
struct TemplateContext {
  const manifest::Workload* workload = nullptr;
  const manifest::PodTemplate* pod_template = nullptr;
  std::string file;
  std::uint32_t document = 0;
  // Leave out findings that are only informational or that the plan itself
  // resolves (fixable): `archfit fix` reports neither, and wording them costs
  // time on large inputs.
  bool quiet = false;
};

// Looks an image up; never returns nullptr.
using Lookup = std::function<const resolve::Resolution*(const image::Reference&)>;

enum class Action { Fix, Remove };

TemplatePlan plan_template(const TemplateContext& where, const Config& config, const Lookup& lookup,
                           Action action = Action::Fix);

}  // namespace archfit::placement
