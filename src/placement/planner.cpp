#include <algorithm>

#include <archfit/base/error.hpp>
#include <archfit/base/text.hpp>
#include <archfit/placement/plan.hpp>

#include "placement/constraints.hpp"
#include "placement/labels.hpp"
#include "placement/tolerations.hpp"

namespace archfit::placement {

using detail::is_empty;
using detail::PodPlacement;
using yaml::NodeRef;
using yaml::Value;

namespace {

std::string join(const std::vector<std::string>& parts, const char* separator) {
  std::string out;
  for (const std::string& p : parts) {
    if (!out.empty()) out += separator;
    out += p;
  }
  return out;
}

std::string list(const image::PlatformSet& set) {
  return join(set.strs(), ", ");
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

bool has_annotation(const std::vector<std::pair<std::string, std::string>>& labels,
                    NodeRef metadata, const std::string& key) {
  (void)labels;
  NodeRef value = metadata.resolved().get("annotations").resolved().get(key).resolved();
  return value.is_scalar() && to_lower(value.scalar()) == "true";
}

// Builds findings with the template's location and resource filled in.
class Reporter {
 public:
  Reporter(const TemplateContext& where, std::vector<Finding>& out) : where_(where), out_(out) {}

  // Whether a finding of this kind is wanted at all.
  bool wants(Severity severity, bool fixable) const {
    return !where_.quiet || (severity > Severity::Info && !fixable);
  }

  Finding& add(const char* rule, Severity severity, std::string message, NodeRef at,
               const std::string& field) {
    Finding& f = out_.emplace_back();
    f.rule = rule;
    f.severity = severity;
    f.message = std::move(message);
    f.file = where_.file;
    f.document = where_.document;
    if (at) {
      f.line = at.line();
      f.column = at.column();
    }
    const manifest::Workload& w = *where_.workload;
    f.resource = ResourceRef{w.api_version, w.kind, w.name, w.namespace_name};
    f.field_path = path(field);
    return f;
  }

  // The path of a field below the pod template, from the document root.
  std::string path(const std::string& field) const {
    std::string out = where_.workload->path;
    for (const std::string& part : {where_.pod_template->path, field}) {
      if (part.empty()) continue;
      if (!out.empty()) out += '.';
      out += part;
    }
    return out;
  }

 private:
  const TemplateContext& where_;
  std::vector<Finding>& out_;
};

std::string json_or_empty(const Value& v) {
  return v.is_null() ? std::string() : yaml::to_json(v);
}

struct ImageFacts {
  std::vector<const image::PlatformSet*> sets;  // owned by the lookup or the config
  // For messages: each image and whether its platforms are only assumed.
  std::vector<std::pair<std::string_view, bool>> images;
  bool leave_alone = false;

  // "image" supports ...; "image" is assumed to support ...
  std::string described() const {
    std::string out;
    for (std::size_t i = 0; i < images.size(); ++i) {
      if (i > 0) out += "; ";
      out += archfit::quoted(images[i].first);
      out += images[i].second ? " is assumed to support " : " supports ";
      out += list(*sets[i]);
    }
    return out;
  }
};

ImageFacts look_up_images(const manifest::PodTemplate& t, const Config& config,
                          const Lookup& lookup, Reporter& report) {
  ImageFacts facts;
  for (const manifest::Container& c : t.containers) {
    if (!c.image) continue;
    // Worded only for a finding.
    auto field = [&c] {
      return std::string(c.init ? "spec.initContainers" : "spec.containers") + "[" +
             archfit::quoted(c.name) + "].image";
    };
    auto who = [&c] { return "container " + archfit::quoted(c.name); };
    const std::optional<image::Reference>& ref = c.reference;
    if (!ref) {
      report.add("invalid-image-reference", Severity::Error,
                 who() + ": " + c.reference_error + "; archfit leaves this workload alone", c.image,
                 field());
      facts.leave_alone = true;
      continue;
    }
    if (c.pull_policy == "Never") {
      if (!report.wants(Severity::Info, false)) continue;
      report.add("unresolved-image", Severity::Info,
                 who() + ": imagePullPolicy is Never, so archfit does not look up " +
                     archfit::quoted(c.image_ref) + " and it does not restrict where the pod runs",
                 c.image, field());
      continue;
    }
    const resolve::Resolution* r = lookup(*ref);
    if (!ref->has_digest() && report.wants(Severity::Info, false)) {
      std::string pin =
          r->ok && !r->digest.empty() ? " (" + c.image_ref + "@" + r->digest + ")" : "";
      report.add("mutable-tag", Severity::Info,
                 who() + ": image " + archfit::quoted(c.image_ref) +
                     " is a tag, which can move to an image built for other platforms; pin its "
                     "digest" +
                     pin,
                 c.image, field());
    }
    if (r->ok) {
      facts.sets.push_back(&r->platforms);
      facts.images.emplace_back(c.image_ref, false);
      continue;
    }
    const resolve::Settings& s = config.resolve;
    bool fallback = !s.fallback_platforms.empty();
    if (s.on_unresolved != resolve::OnUnresolved::Ignore) {
      std::string what =
          fallback ? "; using resolve.fallbackPlatforms (" + list(s.fallback_platforms) + ")"
                   : "; archfit leaves this workload alone until the image is resolved (run "
                     "archfit lock, or set resolve.fallbackPlatforms)";
      Severity severity =
          s.on_unresolved == resolve::OnUnresolved::Fail ? Severity::Error : Severity::Warning;
      report.add("unresolved-image", severity,
                 who() + ": cannot resolve " + archfit::quoted(c.image_ref) + ": " +
                     std::string(r->cause(*ref)) + what,
                 c.image, field());
    }
    if (fallback) {
      facts.sets.push_back(&s.fallback_platforms);
      facts.images.emplace_back(c.image_ref, true);
    } else {
      facts.leave_alone = true;
    }
  }
  return facts;
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
      (has_annotation(w.labels, w.object.get("metadata"), config.opt_out_annotation) ||
       has_annotation(t.labels, t.node.get("metadata"), config.opt_out_annotation))) {
    return false;
  }
  return true;
}

PodPlacement current_placement(const manifest::PodTemplate& t) {
  PodPlacement p;
  p.node_selector = yaml::to_value(t.spec.get("nodeSelector"));
  p.affinity = yaml::to_value(t.spec.get("affinity"));
  p.tolerations = yaml::to_value(t.spec.get("tolerations"));
  return p;
}

// Tolerations the configuration asks for on the architectures of `archs`
// that the list does not tolerate yet, appended to it.
std::vector<Toleration> add_tolerations(Value& tolerations, const std::vector<std::string>& archs,
                                        const Config& config) {
  std::vector<Toleration> added;
  for (const std::string& arch : archs) {
    auto it = config.architectures.find(arch);
    if (it == config.architectures.end()) continue;
    for (const Toleration& wanted : it->second.tolerations) {
      bool covered =
          tolerations.is_sequence() &&
          std::any_of(tolerations.items().begin(), tolerations.items().end(),
                      [&wanted](const Value& e) { return detail::tolerates(e, wanted); });
      if (covered) continue;
      if (!tolerations.is_sequence()) tolerations = Value::sequence();
      tolerations.items().push_back(detail::toleration_value(wanted));
      added.push_back(wanted);
    }
  }
  return added;
}

void remove_tolerations(Value& tolerations, const std::vector<std::string>& archs,
                        const Config& config) {
  if (!tolerations.is_sequence()) return;
  for (const std::string& arch : archs) {
    auto it = config.architectures.find(arch);
    if (it == config.architectures.end()) continue;
    for (const Toleration& t : it->second.tolerations) {
      Value mine = detail::toleration_value(t);
      std::erase(tolerations.items(), mine);
    }
  }
}

// Records one field's new value if it differs from the current one.
void record(TemplatePlan& plan, std::vector<std::string> path, const Value& current,
            const Value& desired) {
  if (current == desired) return;
  FieldChange change;
  change.path = std::move(path);
  if (is_empty(desired) && !is_empty(current)) {
    change.remove = true;
  } else if (is_empty(desired) && is_empty(current)) {
    return;
  } else {
    change.value = desired;
  }
  plan.changes.push_back(std::move(change));
}

// Taking out archfit's annotation takes out the annotations mapping (and the
// template's metadata) when nothing else is left in it, since archfit created
// them.
void widen_annotation_removal(TemplatePlan& plan, NodeRef pod_template) {
  for (FieldChange& change : plan.changes) {
    if (!change.remove || change.path.size() != 3 || change.path[0] != "metadata" ||
        change.path[1] != "annotations") {
      continue;
    }
    NodeRef metadata = pod_template.get("metadata").resolved();
    if (metadata.get("annotations").resolved().size() != 1) return;
    change.path.pop_back();
    if (metadata.size() == 1) change.path.pop_back();
    return;
  }
}

}  // namespace

TemplatePlan plan_template(const TemplateContext& where, const Config& config, const Lookup& lookup,
                           Action action) {
  TemplatePlan plan;
  const manifest::Workload& w = *where.workload;
  const manifest::PodTemplate& t = *where.pod_template;
  if (!selected(w, t, config)) return plan;
  Reporter report(where, plan.findings);
  detail::NodeModel nodes(config);

  const PodPlacement current = current_placement(t);
  NodeRef annotation_node =
      t.node.get("metadata").resolved().get("annotations").resolved().get(kPlatformsAnnotation);
  std::optional<image::PlatformSet> previous;
  if (annotation_node.resolved().is_scalar()) {
    try {
      previous = image::PlatformSet::parse(annotation_node.resolved().scalar());
    } catch (const Error&) {
      previous.reset();  // not archfit's syntax: treat as absent
    }
  }

  PodPlacement desired = current;
  bool owned = false;  // the desired state holds constraints archfit wrote
  if (previous) detail::remove_constraints_for(desired, *previous, nodes);

  if (action == Action::Remove) {
    if (!previous) return plan;
    std::vector<std::string> archs = previous->archs();
    remove_tolerations(desired.tolerations, archs, config);
  } else {
    ImageFacts facts = look_up_images(t, config, lookup, report);
    if (facts.leave_alone || facts.sets.empty()) {
      plan.changes.clear();
      return plan;
    }
    image::PlatformSet S = config.cluster_platforms;
    for (const image::PlatformSet* set : facts.sets)
      S = set->filter_runnable_on(S);
    plan.platforms = S;
    NodeRef spec_at = t.spec;
    if (S.empty()) {
      report.add("no-common-platform", Severity::Error,
                 "no platform of the cluster (" + list(config.cluster_platforms) +
                     ") runs every image of this pod: " + facts.described() +
                     "; rebuild an image for a common platform or split the pod",
                 spec_at, "spec");
      return plan;
    }
    if (previous && *previous == S) {
      desired = current;  // archfit's own constraints are in place and still right
    } else if (previous && report.wants(Severity::Warning, true)) {
      report
          .add("stale-placement", Severity::Warning,
               "archfit placed this template for " + previous->str() + " (" + kPlatformsAnnotation +
                   "), but its images now run on " + S.str() + "; archfit fix updates it",
               annotation_node, std::string("metadata.annotations.") + kPlatformsAnnotation)
          .fixable = true;
    }
    if (!config.respect_existing) detail::drop_platform_constraints(desired, nodes);

    image::PlatformSet allowed = nodes.allowed(desired.node_selector, desired.affinity);
    image::PlatformSet usable = allowed.intersect(S);
    if (usable.empty()) {
      bool selector = !is_empty(desired.node_selector) &&
                      nodes.allowed_by_selector(desired.node_selector).intersect(S).empty();
      NodeRef at = selector ? t.spec.get("nodeSelector") : t.spec.get("affinity");
      report.add("pinned-to-unsupported-platform", Severity::Error,
                 std::string(selector ? "nodeSelector" : "node affinity") + " allows only " +
                     list(allowed) + ", but " + facts.described() +
                     ": the pods cannot run anywhere; change the constraint or the image "
                     "(archfit fix leaves this to you)",
                 at ? at : spec_at, selector ? "spec.nodeSelector" : "spec.affinity");
      return plan;
    }

    bool narrowed = !subset(allowed, S) && config.mode != Mode::TolerationsOnly;
    if (narrowed) {
      detail::restrict_to(desired, S, nodes, config.mode);
      owned = true;
    }
    if (narrowed && report.wants(Severity::Error, true)) {
      // The user's constraints already narrow the platforms (but not enough),
      // rather than saying nothing about them (no constraint, or only
      // matchFields or unrelated labels).
      bool had_own = allowed.size() < nodes.allowed(Value(), Value()).size();
      image::PlatformSet unsupported = minus(allowed, S);
      std::string field = is_empty(current.affinity) && !is_empty(desired.node_selector) &&
                                  !(desired.node_selector == current.node_selector)
                              ? "spec.nodeSelector"
                              : "spec.affinity";
      Finding& f =
          had_own && !(previous && !(*previous == S))
              ? report.add("pinned-to-unsupported-platform", Severity::Error,
                           "the pod's node constraints allow " + list(unsupported) +
                               ", where its images do not run (" + facts.described() +
                               "): pods there fail with \"exec format error\"; archfit fix "
                               "narrows the constraint to " +
                               list(S),
                           t.spec.get(field == "spec.affinity" ? "affinity" : "nodeSelector")
                               ? t.spec.get(field == "spec.affinity" ? "affinity" : "nodeSelector")
                               : spec_at,
                           field)
              : report.add("missing-arch-affinity", Severity::Error,
                           "nothing keeps the pods off " + list(unsupported) +
                               " nodes, where their images do not run (" + facts.described() +
                               "); archfit fix adds " +
                               (field == "spec.nodeSelector" ? "a nodeSelector" : "node affinity") +
                               " for " + list(S),
                           spec_at, field);
      f.fixable = true;
      if (field == "spec.affinity") {
        f.current = json_or_empty(current.affinity);
        f.proposed = json_or_empty(desired.affinity);
      } else {
        f.current = json_or_empty(current.node_selector);
        f.proposed = json_or_empty(desired.node_selector);
      }
    }
    if (config.mode == Mode::Preferred) {
      Value before = desired.affinity;
      detail::add_preferences(desired, usable, nodes);
      if (!(before == desired.affinity)) owned = true;
    }

    Value before_tolerations = desired.tolerations;
    std::vector<Toleration> added = add_tolerations(desired.tolerations, usable.archs(), config);
    if (!added.empty()) owned = true;
    if (!added.empty() && report.wants(Severity::Warning, true)) {
      std::vector<std::string> names;
      for (const Toleration& a : added)
        names.push_back(detail::describe(a));
      // Pending for good when no allowed architecture is free of taints.
      bool all_tainted = true;
      for (const std::string& arch : usable.archs()) {
        auto it = config.architectures.find(arch);
        if (it == config.architectures.end() || it->second.tolerations.empty()) {
          all_tainted = false;
        }
      }
      NodeRef at = t.spec.get("tolerations");
      Finding& f = report.add(
          "missing-toleration", all_tainted ? Severity::Error : Severity::Warning,
          "the pods can run on " + join(usable.archs(), ", ") +
              " nodes but do not tolerate their taints (" + join(names, ", ") + ")" +
              (all_tainted ? ", so they stay Pending" : ", so they never use those nodes") +
              "; archfit fix adds the tolerations",
          at ? at : spec_at, "spec.tolerations");
      f.fixable = true;
      f.current = json_or_empty(before_tolerations);
      f.proposed = json_or_empty(desired.tolerations);
    }
    if (previous && !(*previous == S)) {
      // What archfit wrote for the old set is gone; the new set's tolerations
      // were added above.
      std::vector<std::string> gone;
      for (const std::string& arch : previous->archs()) {
        std::vector<std::string> now = usable.archs();
        if (std::find(now.begin(), now.end(), arch) == now.end()) gone.push_back(arch);
      }
      remove_tolerations(desired.tolerations, gone, config);
    }
    if (previous && *previous == S) owned = true;

    Value annotation = owned && config.annotate ? Value::string(S.str()) : Value();
    Value current_annotation = annotation_node.resolved().is_scalar()
                                   ? Value::string(std::string(annotation_node.resolved().scalar()))
                                   : Value();
    if (previous || owned) {
      record(plan, {"metadata", "annotations", kPlatformsAnnotation}, current_annotation,
             annotation);
    }
  }
  if (action == Action::Remove) {
    record(plan, {"metadata", "annotations", kPlatformsAnnotation},
           Value::string(std::string(annotation_node.resolved().scalar())), Value());
  }
  widen_annotation_removal(plan, t.node);
  record(plan, {"spec", "nodeSelector"}, current.node_selector, desired.node_selector);
  record(plan, {"spec", "affinity"}, current.affinity, desired.affinity);
  record(plan, {"spec", "tolerations"}, current.tolerations, desired.tolerations);
  return plan;
}

}  // namespace archfit::placement
