#include <algorithm>

#include <archfit/base/error.hpp>
#include <archfit/base/text.hpp>
#include <archfit/placement/ownership.hpp>
#include <archfit/placement/plan.hpp>

#include "placement/constraints.hpp"
#include "placement/draft.hpp"
#include "placement/images.hpp"
#include "placement/labels.hpp"
#include "placement/reporter.hpp"
#include "placement/spread.hpp"
#include "placement/tolerations.hpp"
#include "placement/validate.hpp"
#include "placement/view.hpp"
#include "placement/wording.hpp"

namespace archfit::placement {

using yaml::NodeRef;
using yaml::Value;

namespace {

// A field of the pod spec, and an annotation of the pod template.
yaml::Path spec_field(std::string_view name) {
  return {PathStep::of("spec"), PathStep::of(std::string(name))};
}
yaml::Path annotation_field(std::string_view key) {
  return {PathStep::of("metadata"), PathStep::of("annotations"), PathStep::of(std::string(key))};
}

// "a", "b": images as messages name them.
std::string quoted_list(const std::vector<std::string_view>& names) {
  std::string out;
  for (std::string_view n : names)
    out += (out.empty() ? "" : ", ") + archfit::quoted(n);
  return out;
}

bool subset(const image::PlatformSet& a, const image::PlatformSet& b) {
  return std::all_of(a.begin(), a.end(), [&b](const image::Platform& p) { return b.contains(p); });
}

image::PlatformSet minus(const image::PlatformSet& a, const image::PlatformSet& b) {
  image::PlatformSet out;
  for (const image::Platform& p : a) {
    if (!b.contains(p)) out.insert(p);
  }
  return out;
}

bool opted_out(NodeRef metadata, const std::string& key) {
  NodeRef value = yaml::lookup(yaml::lookup(metadata, "annotations"), key).resolved();
  return value.is_scalar() && to_lower(value.scalar()) == "true";
}

bool selected(const manifest::Workload& w, const manifest::PodTemplate& t, const Config& config) {
  const auto& include = config.namespaces_include;
  const auto& exclude = config.namespaces_exclude;
  if (!include.empty() &&
      std::find(include.begin(), include.end(), w.namespace_name) == include.end()) {
    return false;
  }
  if (std::find(exclude.begin(), exclude.end(), w.namespace_name) != exclude.end()) return false;
  if (!config.selector.empty() && !config.selector.matches(w.labels)) return false;
  if (!config.opt_out_annotation.empty() &&
      (opted_out(yaml::lookup(w.object, "metadata"), config.opt_out_annotation) ||
       opted_out(yaml::lookup(t.node, "metadata"), config.opt_out_annotation))) {
    return false;
  }
  return true;
}

Path annotations_path() {
  return {PathStep::of("metadata"), PathStep::of("annotations")};
}

const Value& field_of(const Value& view, const char* name) {
  static const Value none;
  const Value* v = view.find("spec")->find(name);
  return v != nullptr ? *v : none;
}

std::string json_or_empty(const Value& v) {
  return v.is_null() ? std::string() : yaml::to_json(v);
}

// What the template says archfit did to it before.
struct Previous {
  bool present = false;  // archfit.io/owned or archfit.io/platforms
  bool legacy = false;   // archfit.io/platforms alone, from an archfit without records
  Ownership record;
  std::optional<image::PlatformSet> platforms;
  std::string unreadable;  // why archfit.io/owned is not a record
};

Previous read_previous(const Value& view) {
  Previous out;
  const Value* annotations = yaml::lookup(view, annotations_path());
  if (annotations == nullptr || !annotations->is_mapping()) return out;
  if (const Value* platforms = annotations->find(kPlatformsAnnotation)) {
    out.present = true;
    if (platforms->is_string()) {
      try {
        out.platforms = image::PlatformSet::parse(platforms->as_string());
      } catch (const Error&) {
        out.platforms.reset();  // not archfit's syntax: nothing to compare with
      }
    }
  }
  if (const Value* owned = annotations->find(kOwnedAnnotation)) {
    out.present = true;
    std::string why = "it is not a string";
    std::optional<Ownership> record =
        owned->is_string() ? Ownership::parse(owned->as_string(), &why) : std::nullopt;
    if (record) {
      out.record = std::move(*record);
    } else {
      out.unreadable = why;
    }
  }
  out.legacy = out.present && annotations->find(kOwnedAnnotation) == nullptr;
  return out;
}

// Writes archfit's annotations: the platform set and the record of what the
// draft changed (including the annotations mapping, when it makes one).
void annotate(detail::Draft& d, const image::PlatformSet& S) {
  d.add_annotation(kPlatformsAnnotation, Value::string(S.str()));
  d.add_annotation(kOwnedAnnotation, Value::string(d.ownership().str()));
}

class Planner {
 public:
  Planner(const TemplateContext& where, const Config& config, const Lookup& lookup,
          TemplatePlan& plan)
      : t_(*where.pod_template),
        config_(config),
        lookup_(lookup),
        plan_(plan),
        report_(where, plan.findings),
        nodes_(config) {}

  void run(Action action) {
    plan_.current = detail::read_view(t_);
    Previous previous = read_previous(plan_.current);
    if (!previous.unreadable.empty()) {
      report_.add("stale-placement", findings::Severity::Error,
                  "the annotation " + std::string(kOwnedAnnotation) + " cannot be read (" +
                      previous.unreadable +
                      "), so archfit cannot tell its own constraints from yours and leaves this "
                      "template alone; restore the annotation from version control, or take "
                      "archfit's constraints and its archfit.io annotations out by hand",
                  annotation_node(kOwnedAnnotation), annotation_field(kOwnedAnnotation));
      plan_.desired = plan_.current;
      return;
    }
    plan_.has_record = previous.present;
    legacy_ = previous.legacy;
    previous_platforms_ = previous.platforms;
    previous_record_ = previous.record;
    detail::Undone undone;
    if (previous.present) {
      undone = detail::undo(plan_.current, previous.record);
      plan_.undone = std::move(undone.view);
      plan_.removal = detail::changes_between(plan_.current, plan_.user(), undone.positions);
    }
    if (!undone.kept.empty() && report_.wants(findings::Severity::Warning, false)) {
      report_.add("stale-placement", findings::Severity::Warning,
                  "archfit wrote " + detail::join(undone.kept, ", ") +
                      " but they were changed since, so they are yours now and archfit leaves "
                      "them as they are",
                  annotation_node(kOwnedAnnotation), annotation_field(kOwnedAnnotation));
    }
    if (action == Action::Fix) {
      place();
    } else {
      plan_.desired = plan_.user();
    }
    plan_.changes = detail::changes_between(plan_.user(), plan_.desired);
    settle_findings();
  }

 private:
  void leave_alone() {
    plan_.desired = plan_.current;
    spread_left_alone();
  }

  // A spread this template was to get is not written when placement leaves
  // the template as it is: say so, since nothing else would.
  void spread_left_alone() {
    const spread::TopologySpread* wanted = report_.where().spread;
    if (wanted == nullptr || !report_.wants(findings::Severity::Warning, false)) return;
    report_.add("spread-refused", findings::Severity::Warning,
                "archfit does not spread these pods (" + wanted->origin + ", over " + wanted->key +
                    "): it leaves this template as it is, for the error reported on it",
                t_.spec, spec_field("topologySpreadConstraints"));
  }

  void place() {
    std::vector<detail::Problem> problems =
        detail::validate_view(plan_.user(), config_.taint_comparison_operators);
    for (const detail::Problem& p : problems) {
      report_.add(p.rule, findings::Severity::Error,
                  p.message + "; archfit leaves this template alone", node_at(p.field), p.field);
    }
    if (!problems.empty()) return leave_alone();
    detail::ImageFacts facts = detail::look_up_images(t_, config_, lookup_, report_);
    if (facts.leave_alone) return leave_alone();
    const image::PlatformSet S = facts.common(config_.cluster_platforms);
    plan_.platforms = S;
    if (S.empty()) {
      std::vector<std::string_view> foreign = facts.foreign(config_.cluster_platforms);
      std::string what_to_do =
          foreign.empty()
              ? "rebuild an image for a common platform or split the pod"
              : "the cluster runs none of the platforms of " + quoted_list(foreign) +
                    ": if it has such nodes, add them to clusterPlatforms; otherwise leave this "
                    "workload out (the " +
                    config_.opt_out_annotation +
                    " annotation, kinds.exclude or namespaces.exclude)";
      report_.add("no-common-platform", findings::Severity::Error,
                  "no platform of the cluster (" + detail::list(config_.cluster_platforms) +
                      ") runs every image of this pod: " + facts.described() + "; " + what_to_do,
                  t_.spec, yaml::Path{PathStep::of("spec")});
      plan_.desired = plan_.user();  // without archfit's placement for other images
      spread_left_alone();
      return;
    }

    detail::Draft d(plan_.user());
    if (!config_.respect_existing) {
      std::vector<std::string> keys = user_spec_keys();
      detail::take_arch_constraints(d, nodes_, [&keys](const std::string& key) {
        return static_cast<std::size_t>(std::find(keys.begin(), keys.end(), key) - keys.begin());
      });
    }
    const bool took = d.changed();
    const image::PlatformSet allowed =
        nodes_.allowed(field_of(d.view(), "nodeSelector"), field_of(d.view(), "affinity"));
    plan_.allowed = allowed;
    const image::PlatformSet usable = allowed.intersect(S);
    if (usable.empty()) {
      std::string own = detail::describe_constraints(d.view(), nodes_);
      report_.add(
          "pinned-to-unsupported-platform", findings::Severity::Error,
          "the pods' node constraints" + (own.empty() ? "" : " (" + own + ")") + " allow " +
              (allowed.empty() ? "no platform of the cluster" : "only " + detail::list(allowed)) +
              ", but " + facts.described() +
              ": the pods cannot run anywhere; change the constraint or the image (archfit "
              "fix leaves this to you)",
          pinned_node(), pinned_field());
      plan_.desired = plan_.user();
      spread_left_alone();
      return;
    }
    const bool too_wide = !subset(allowed, S);
    // The user's architecture constraints, worded before archfit adds its own
    // (only when a finding will say so).
    const std::string own = too_wide && report_.wants(findings::Severity::Error, true)
                                ? detail::describe_constraints(d.view(), nodes_, true)
                                : std::string();
    bool selector_only = false;
    if (too_wide && config_.mode != Mode::TolerationsOnly) {
      selector_only = detail::restrict_to(d, S, nodes_, config_.mode);
    }
    bool preferences =
        config_.mode == Mode::Preferred && detail::add_preferences(d, usable, nodes_);
    std::vector<Toleration> added = detail::add_tolerations(d, usable.archs(), config_);
    std::vector<Toleration> for_group =
        detail::add_tolerations(d, report_.where().group_tolerations);
    const spread::TopologySpread* wanted = report_.where().spread;
    std::optional<detail::SpreadOutcome> spread;
    if (wanted != nullptr) spread = detail::add_topology_spread(d, *wanted, usable.archs());
    if (d.changed() && config_.annotate) annotate(d, S);
    plan_.gives_back = d.gives_back();
    plan_.desired = std::move(d).release();

    Facts f{facts, S, allowed, usable};
    if (took) report_taken(f);
    if (too_wide) report_too_wide(f, own, selector_only);
    if (preferences) report_preferences(f);
    if (!added.empty()) report_tolerations(f, added);
    if (spread) report_spread(*wanted, *spread);
    if (!for_group.empty()) report_group_tolerations(for_group);
  }

  void report_group_tolerations(const std::vector<Toleration>& added) {
    if (!report_.wants(findings::Severity::Warning, true)) return;
    std::vector<std::string> names;
    for (const Toleration& t : added)
      names.push_back(detail::describe(t));
    findings::Finding& finding = report_.add(
        "missing-toleration", findings::Severity::Warning,
        "this piece of a split goes to its group's nodes, which are tainted (" +
            detail::join(names, ", ") +
            "), and its pods do not tolerate that, so they stay Pending; archfit fix adds the "
            "tolerations",
        node_at(spec_field("tolerations")), spec_field("tolerations"));
    fixable(finding, "tolerations");
  }

  void report_spread(const spread::TopologySpread& wanted, const detail::SpreadOutcome& s) {
    const yaml::Path field = spec_field("topologySpreadConstraints");
    if (!s.refused.empty()) {
      if (report_.wants(findings::Severity::Warning, false))
        report_.add("spread-refused", findings::Severity::Warning,
                    "archfit does not spread these pods (" + wanted.origin + "): " + s.refused,
                    t_.spec, field);
      return;
    }
    if (!s.excluded.empty() && report_.wants(findings::Severity::Warning, false)) {
      report_.add("spread-group-excluded", findings::Severity::Warning,
                  wanted.origin + ": " + detail::join(s.excluded, ", ") +
                      (s.excluded.size() == 1 ? " is" : " are") +
                      " left out, since the images run on " + detail::list(plan_.platforms) +
                      "; the pods spread over " + detail::join(s.kept, ", "),
                  t_.spec, field);
    }
    if (wanted.has_bases && report_.wants(findings::Severity::Warning, false)) {
      report_.add("spread-base-unexpressed", findings::Severity::Warning,
                  wanted.origin +
                      " gives a group a base, which a topology spread cannot keep: the pods are "
                      "divided by weight alone (realisation: split keeps bases, for Deployments "
                      "without an autoscaler)",
                  t_.spec, field);
    }
    if (!s.added || !report_.wants(findings::Severity::Warning, true)) return;
    findings::Finding& finding =
        report_.add("spread-not-applied", findings::Severity::Warning,
                    "the pods do not spread over " + detail::join(s.kept, ", ") + " as " +
                        wanted.origin + " asks; archfit fix adds a topology spread over " +
                        wanted.key + " (maxSkew 1) and " + wanted.key + " In [" +
                        detail::join(s.values, ", ") + "] to their required node affinity",
                    t_.spec, field);
    fixable(finding, "topologySpreadConstraints");
  }

  struct Facts {
    const detail::ImageFacts& images;
    const image::PlatformSet& S;
    const image::PlatformSet& allowed;
    const image::PlatformSet& usable;
  };

  void report_taken(const Facts& f) {
    if (!report_.wants(findings::Severity::Warning, true)) return;
    std::string own = detail::describe_constraints(plan_.user(), nodes_, true);
    findings::Finding& finding = report_.add(
        "missing-arch-affinity", findings::Severity::Warning,
        "the pods' own architecture constraints (" +
            (own.empty() ? "in their node affinity" : own) +
            ") are archfit's to set (placement.respectExisting is false): archfit fix replaces "
            "them with its own for " +
            detail::list(f.S),
        pinned_node(), pinned_field());
    fixable(finding, pinned_field() == spec_field("nodeSelector") ? "nodeSelector" : "affinity");
  }

  void report_too_wide(const Facts& f, const std::string& own, bool selector_only) {
    // What fix resolves is not worded for fix (TemplateContext::quiet).
    const bool tolerations_only = config_.mode == Mode::TolerationsOnly;
    if (!tolerations_only && !report_.wants(findings::Severity::Error, true)) return;
    image::PlatformSet unsupported = minus(f.allowed, f.S);
    if (tolerations_only) {
      std::vector<std::string> reachable;
      for (const std::string& arch : image::PlatformSet(unsupported).archs()) {
        if (detail::can_start_on(field_of(plan_.desired, "tolerations"), arch, config_)) {
          reachable.push_back(arch);
        }
      }
      if (reachable.empty()) return;
      report_.add(
          "missing-arch-affinity", findings::Severity::Error,
          "placement.mode is tolerationsOnly, so archfit adds only tolerations: the pods can "
          "still start on " +
              detail::join(reachable, ", ") + " nodes, where their images do not run (" +
              f.images.described() +
              "), and crash there with \"exec format error\"; taint those nodes, or use "
              "placement.mode affinity",
          t_.spec, spec_field("affinity"));
      return;
    }
    const char* field = selector_only ? "nodeSelector" : "affinity";
    findings::Finding& finding =
        !own.empty()
            ? report_.add("pinned-to-unsupported-platform", findings::Severity::Error,
                          "the pods' node constraints (" + own + ") allow " +
                              detail::list(unsupported) + ", where their images do not run (" +
                              f.images.described() +
                              "): pods there fail with \"exec format error\"; archfit fix adds "
                              "node affinity that narrows them to " +
                              detail::list(f.S),
                          pinned_node(), pinned_field())
            : report_.add("missing-arch-affinity", findings::Severity::Error,
                          "nothing keeps the pods off " + detail::list(unsupported) +
                              " nodes, where their images do not run (" + f.images.described() +
                              "); archfit fix adds " +
                              (selector_only ? "a nodeSelector" : "node affinity") + " for " +
                              detail::list(f.S),
                          t_.spec, spec_field(field));
    fixable(finding, field);
  }

  void report_preferences(const Facts& f) {
    if (!report_.wants(findings::Severity::Warning, true)) return;
    std::vector<std::string> weights;
    for (const std::string& arch : f.usable.archs()) {
      auto w = config_.preferred_weights.find(arch);
      if (w != config_.preferred_weights.end())
        weights.push_back(arch + " " + std::to_string(w->second));
    }
    findings::Finding& finding = report_.add(
        "missing-arch-affinity", findings::Severity::Warning,
        "the pods do not prefer nodes by architecture as placement.preferredWeights asks (" +
            detail::join(weights, ", ") + "); archfit fix adds preferred node affinity for them",
        node_at(spec_field("affinity")), spec_field("affinity"));
    fixable(finding, "affinity");
  }

  void report_tolerations(const Facts& f, const std::vector<Toleration>& added) {
    const Value& tolerations = field_of(plan_.user(), "tolerations");
    // Pending for good when no architecture the pods may be scheduled to (in
    // tolerationsOnly mode that includes those their images lack) lets them
    // start with the tolerations they have.
    const image::PlatformSet& reachable =
        config_.mode == Mode::TolerationsOnly ? f.allowed : f.usable;
    bool pending = true;
    for (const std::string& arch : reachable.archs()) {
      if (detail::can_start_on(tolerations, arch, config_)) pending = false;
    }
    findings::Severity severity = pending ? findings::Severity::Error : findings::Severity::Warning;
    if (!report_.wants(severity, true)) return;
    std::vector<std::string> names;
    bool only_prefer = true;
    for (const Toleration& a : added) {
      names.push_back(detail::describe(a));
      if (detail::keeps_pods_off(a)) only_prefer = false;
    }
    std::vector<std::string> archs;
    for (const std::string& arch : f.usable.archs()) {
      auto it = config_.architectures.find(arch);
      if (it != config_.architectures.end() && !it->second.tolerations.empty()) {
        archs.push_back(arch);
      }
    }
    std::string consequence = pending       ? ", so they stay Pending"
                              : only_prefer ? ", so the scheduler avoids those nodes"
                                            : ", so they never use those nodes";
    findings::Finding& finding =
        report_.add("missing-toleration", severity,
                    "the pods can run on " + detail::join(archs, ", ") +
                        " nodes but do not tolerate their taints (" + detail::join(names, ", ") +
                        ")" + consequence + "; archfit fix adds the tolerations",
                    node_at(spec_field("tolerations")), spec_field("tolerations"));
    fixable(finding, "tolerations");
  }

  // Marks a finding fixable, with the field as it is and as fix writes it.
  void fixable(findings::Finding& f, const char* field) {
    f.fixable = true;
    f.current = json_or_empty(field_of(plan_.current, field));
    f.proposed = json_or_empty(field_of(plan_.desired, field));
  }

  // lint and fix agree: a finding is fixable exactly when fix changes the
  // template, and a template archfit placed before is reported as such.
  void settle_findings() {
    auto& findings = plan_.findings;
    bool changes = plan_.changes_template();
    if (!changes || plan_.has_record) {
      std::erase_if(findings, [](const findings::Finding& f) { return f.fixable; });
    }
    if (!changes || !report_.wants(findings::Severity::Warning, true)) return;
    if (plan_.has_record) {
      report_stale();
      return;
    }
    if (std::none_of(findings.begin(), findings.end(),
                     [](const findings::Finding& f) { return f.fixable; })) {
      findings::Finding& f = report_.add("missing-arch-affinity", findings::Severity::Warning,
                                         "archfit fix would change this template's placement",
                                         t_.spec, yaml::Path{PathStep::of("spec")});
      f.fixable = true;
    }
  }

  void report_stale() {
    std::string message;
    const image::PlatformSet& S = plan_.platforms;
    bool placed_now = plan_.desired.find("metadata") != nullptr &&
                      yaml::lookup(plan_.desired, annotations_path()) != nullptr &&
                      yaml::lookup(plan_.desired, annotations_path())->find(kOwnedAnnotation);
    std::string before = previous_platforms_ ? previous_platforms_->str() : std::string();
    if (legacy_) {
      message = std::string("this template carries ") + kPlatformsAnnotation + " without " +
                kOwnedAnnotation +
                ", from an archfit that did not record what it wrote: archfit treats the "
                "constraints it finds as yours from now on; archfit fix places the template "
                "again and records what it adds";
    } else if (!placed_now) {
      message = "archfit placed this template" + (before.empty() ? "" : " for " + before) +
                ", but what it wrote no longer fits (see the other findings); archfit fix takes "
                "it out and leaves your own constraints";
    } else if (!before.empty() && before != S.str()) {
      message = "archfit placed this template for " + before + " (" + kPlatformsAnnotation +
                "), but its images now run on " + S.str() + "; archfit fix updates it";
    } else {
      message = std::string("the constraints archfit recorded in ") + kOwnedAnnotation +
                " are not what it writes now (the configuration changed, or they were edited); "
                "archfit fix writes them again";
    }
    findings::Finding& f =
        report_.add("stale-placement", findings::Severity::Warning, message,
                    annotation_node(kPlatformsAnnotation), annotation_field(kPlatformsAnnotation));
    f.fixable = true;
  }

  NodeRef annotation_node(const char* key) const {
    NodeRef annotations = yaml::lookup(yaml::lookup(t_.node, "metadata"), "annotations");
    NodeRef node = yaml::lookup(annotations, key);
    return node ? node : annotations;
  }

  // The node of a field of the template: the deepest one of its path that
  // exists, for the finding's line. Where it is written in this template: an
  // alias's own place, not its anchor's (which another template may have).
  NodeRef node_at(const yaml::Path& field) const {
    NodeRef node = t_.node;
    NodeRef written;
    for (const PathStep& step : field) {
      NodeRef next;
      if (step.is_index) {
        if (node.is_sequence() && step.index < node.size()) next = node.item(step.index);
      } else if (step.by_name) {
        for (std::size_t i = 0; node.is_sequence() && i < node.size() && !next; ++i) {
          NodeRef n = node.item(i).resolved().get("name").resolved();
          if (n.is_scalar() && n.scalar() == step.key) next = node.item(i);
        }
      } else {
        next = yaml::lookup(node, step.key);
      }
      if (!next) break;
      written = next;
      node = next.resolved();
    }
    return written ? written : t_.spec;
  }

  // The pod spec's keys in the user's order: as the document has them, without
  // the fields archfit added and with those it took out back in their place.
  std::vector<std::string> user_spec_keys() const {
    const Value& spec = *plan_.user().find("spec");
    std::vector<std::string> keys;
    for (std::size_t i = 0; i < t_.spec.size(); ++i) {
      std::string key(t_.spec.key(i).resolved().scalar());
      bool placement = std::find(std::begin(detail::kSpecFields), std::end(detail::kSpecFields),
                                 key) != std::end(detail::kSpecFields);
      if (!placement || spec.find(key) != nullptr) keys.push_back(std::move(key));
    }
    std::vector<const OwnedEntry*> took;
    for (const OwnedEntry& e : previous_record_.entries) {
      if (e.kind == OwnedEntry::Kind::Took && e.path.size() == 2 && e.path[0].key == "spec") {
        took.push_back(&e);
      }
    }
    std::sort(took.begin(), took.end(),
              [](const OwnedEntry* a, const OwnedEntry* b) { return a->position < b->position; });
    for (const OwnedEntry* e : took) {
      const std::string& key = e->path[1].key;
      if (std::find(keys.begin(), keys.end(), key) != keys.end()) continue;
      keys.insert(keys.begin() + static_cast<std::ptrdiff_t>(std::min(e->position, keys.size())),
                  key);
    }
    return keys;
  }

  // Where the user's own constraint is: their nodeSelector when they have no
  // required node affinity, else the affinity.
  yaml::Path pinned_field() const {
    bool selector = field_of(plan_.user(), "nodeSelector").is_mapping() &&
                    yaml::lookup(plan_.user(), detail::terms_path()) == nullptr;
    return spec_field(selector ? "nodeSelector" : "affinity");
  }
  NodeRef pinned_node() const { return node_at(pinned_field()); }

  const manifest::PodTemplate& t_;
  const Config& config_;
  const Lookup& lookup_;
  TemplatePlan& plan_;
  detail::Reporter report_;
  detail::NodeModel nodes_;
  std::optional<image::PlatformSet> previous_platforms_;
  Ownership previous_record_;
  bool legacy_ = false;
};

}  // namespace

TemplatePlan plan_template(const TemplateContext& where, const Config& config, const Lookup& lookup,
                           Action action) {
  TemplatePlan plan;
  if (!selected(*where.workload, *where.pod_template, config)) return plan;
  Planner(where, config, lookup, plan).run(action);
  return plan;
}

std::vector<yaml::FieldChange> removal_changes(const Value& view) {
  Previous previous = read_previous(view);
  detail::Undone undone = detail::undo(view, previous.record);
  return detail::changes_between(view, undone.view, undone.positions);
}

}  // namespace archfit::placement
