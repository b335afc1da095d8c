// Deciding what one pod template should carry (docs/ownership.md): from its
// images' platforms and the cluster's, the node affinity, nodeSelector,
// tolerations and annotations it needs, plus the findings lint reports.
//
// A plan starts from the user's template: the template as it is, without
// what archfit's ownership record (ownership.hpp) says archfit changed
// earlier. What fix writes is always computed from that user's template, so
// a run after images changed gives what a first run would, and `--remove`
// gives the user's template back. Everything here is data; edit/ turns the
// changes into text.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <archfit/findings/finding.hpp>
#include <archfit/image/platform_set.hpp>
#include <archfit/image/reference.hpp>
#include <archfit/manifest/workload.hpp>
#include <archfit/placement/answer.hpp>
#include <archfit/placement/config.hpp>
#include <archfit/spread/model/distributor.hpp>
#include <archfit/spread/model/profile.hpp>
#include <archfit/yaml/change.hpp>
#include <archfit/yaml/value.hpp>

namespace archfit::placement {

struct TemplatePlan {
  // The template's placement fields and metadata as data (see
  // src/placement/view.hpp): as they are, as the user wrote them (without
  // archfit's earlier changes: user()), and as fix leaves them.
  yaml::Value current;
  std::optional<yaml::Value> undone;  // user() when it is not `current`
  yaml::Value desired;
  const yaml::Value& user() const { return undone ? *undone : current; }
  // The template carries an ownership record (or the older archfit.io/platforms
  // annotation alone).
  bool has_record = false;
  // The edits, as two steps: take archfit's earlier changes out (current ->
  // user), then write the new ones (user -> desired).
  std::vector<yaml::FieldChange> removal;
  std::vector<yaml::FieldChange> changes;
  // The plan takes out or fills in values of the user's: before writing,
  // check that taking archfit's changes out gives those bytes back.
  bool gives_back = false;
  std::vector<findings::Finding> findings;
  image::PlatformSet platforms;  // S: where every image runs, within the cluster
  // Where the pods' own constraints (nodeSelector, required node affinity)
  // let them go, within the cluster, as archfit leaves them to decide
  // (without the ones placement.respectExisting: false takes out); nullopt
  // when the plan did not get that far (an image not known, a placement that
  // cannot be read, no common platform).
  std::optional<image::PlatformSet> allowed;

  // fix changes this template.
  bool changes_template() const { return !(desired == current); }
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
  // The topology spread the pods are to carry (a spread profile with
  // realisation topologySpread), written with archfit's placement.
  const spread::TopologySpread* spread = nullptr;
  // Taints of the nodes a piece of a split goes to (its group's pools), which
  // the pods are to tolerate.
  std::vector<Toleration> group_tolerations;
};

enum class Action { Fix, Remove };

TemplatePlan plan_template(const TemplateContext& where, const Config& config, const Lookup& lookup,
                           Action action = Action::Fix);

// The changes that take out what archfit recorded in a template showing
// `view` (a plan's `desired`): what a later `--remove` will do to it.
std::vector<yaml::FieldChange> removal_changes(const yaml::Value& view);

}  // namespace archfit::placement
