#include <algorithm>
#include <charconv>
#include <map>

#include <archfit/base/error.hpp>
#include <archfit/base/splices.hpp>
#include <archfit/base/text.hpp>
#include <archfit/edit/document.hpp>
#include <archfit/findings/rules.hpp>
#include <archfit/manifest/discover.hpp>
#include <archfit/spread/model/allocation.hpp>
#include <archfit/spread/spread.hpp>
#include <archfit/yaml/parse.hpp>
#include <archfit/yaml/stream.hpp>
#include <archfit/yaml/value.hpp>

#include "spread/detail.hpp"

namespace archfit::spread {

namespace {

using yaml::NodeRef;
using yaml::Value;
using namespace detail;

std::vector<yaml::FieldChange> split_changes(const manifest::Workload& w, const Plan& plan,
                                             std::size_t k) {
  const Piece& p = plan.pieces[k];
  const manifest::PodTemplate& t = w.templates.at(0);
  Record r;
  r.piece = k + 1;
  r.pieces = plan.pieces.size();
  r.name = w.name;
  NodeRef replicas = yaml::lookup_path(w.object, {"spec", "replicas"});
  r.replicas = replicas ? std::string(replicas.text()) : "-";
  r.key = p.group.label_key;
  NodeRef node_selector = yaml::lookup_path(t.spec, {"nodeSelector"});
  r.created_node_selector = !node_selector.is_mapping();
  NodeRef annotations = yaml::lookup_path(w.object, {"metadata", "annotations"});
  r.created_annotations = !annotations.is_mapping();
  std::vector<std::string> tpath = {"spec", "template"};
  std::vector<yaml::FieldChange> out;
  auto set = [&out](std::vector<std::string> path, Value v) {
    out.push_back(yaml::FieldChange{std::move(path), std::move(v), false, std::nullopt});
  };
  set({"metadata", "name"}, Value::string(p.name));
  if (r.created_annotations) {
    Value a = Value::mapping();
    a.set(kSplitAnnotation, Value::string(r.str()));
    set({"metadata", "annotations"}, std::move(a));
  } else {
    set({"metadata", "annotations", kSplitAnnotation}, Value::string(r.str()));
  }
  set({"spec", "replicas"}, Value::integer(p.replicas));
  set({"spec", "selector", "matchLabels", kGroupLabel}, Value::string(p.group.label_value));
  set({"spec", "template", "metadata", "labels", kGroupLabel}, Value::string(p.group.label_value));
  if (r.created_node_selector) {
    Value ns = Value::mapping();
    ns.set(p.group.label_key, Value::string(p.group.label_value));
    set({"spec", "template", "spec", "nodeSelector"}, std::move(ns));
    // Right after the containers: where a later split puts it again, ahead
    // of what placement appends at the end of the pod spec.
    std::size_t containers = yaml::find_key(t.spec, "containers");
    if (containers != NodeRef::npos) out.back().position = containers + 1;
  } else {
    set({"spec", "template", "spec", "nodeSelector", p.group.label_key},
        Value::string(p.group.label_value));
  }
  return out;
}

// The Deployment's name and replicas as it wrote them, byte for byte, in
// place of the piece's (restore_scalars); the rest of a split is taken out as
// data (unsplit_changes). nullopt when the piece does not have them as the
// split wrote them.
std::optional<std::string> restore_scalars(const yaml::Tree& tree, const Record& r) {
  NodeRef name = yaml::lookup_path(tree.root(), {"metadata", "name"});
  NodeRef replicas = yaml::lookup_path(tree.root(), {"spec", "replicas"});
  if (!name.is_scalar() || !replicas.is_scalar()) return std::nullopt;
  std::vector<std::pair<yaml::Span, std::string_view>> spans = {{name.span(), r.name}};
  if (r.replicas != "-") spans.push_back({replicas.span(), r.replicas});
  std::sort(spans.begin(), spans.end(),
            [](const auto& a, const auto& b) { return a.first.begin < b.first.begin; });
  Splices edits;
  for (const auto& [span, text] : spans)
    edits.replace(span.begin, span.end - span.begin, std::string(text));
  return edits.apply(tree.text());
}

// The changes that take the rest of a piece's split out again.
std::vector<yaml::FieldChange> unsplit_changes(const Record& r) {
  std::vector<yaml::FieldChange> out;
  auto remove = [&out](std::vector<std::string> path) {
    out.push_back(yaml::FieldChange{std::move(path), Value(), true, std::nullopt});
  };
  if (r.created_annotations) {
    remove({"metadata", "annotations"});
  } else {
    remove({"metadata", "annotations", kSplitAnnotation});
  }
  if (r.replicas == "-") remove({"spec", "replicas"});
  remove({"spec", "selector", "matchLabels", kGroupLabel});
  remove({"spec", "template", "metadata", "labels", kGroupLabel});
  if (r.created_node_selector) {
    remove({"spec", "template", "spec", "nodeSelector"});
  } else {
    remove({"spec", "template", "spec", "nodeSelector", r.key});
  }
  return out;
}

std::optional<std::string> apply(const yaml::Tree& tree, std::uint32_t first_line,
                                 const std::vector<yaml::FieldChange>& changes) {
  std::vector<edit::TemplateEdit> edits{edit::TemplateEdit{tree.root(), {}, &changes}};
  edit::DocumentResult r = edit::edit_document(tree, first_line, edits);
  if (!r.uneditable.empty() || !r.unverified.empty()) return std::nullopt;
  return r.changed ? r.text : std::string(tree.text());
}

findings::Finding finding(std::string rule, std::string message, const DocumentView& doc,
                          const manifest::Workload& w) {
  return findings::make_finding(rule, std::move(message),
                                {doc.file, doc.document, w.object.line(), w.object.column()},
                                {w.api_version, w.kind, w.name, w.namespace_name});
}

// Each document of the stream as `edit` gives it (nothing: as it is). A
// document with a fault in it stays as it is: the run reports the fault where
// it analyses the document.
template <typename Edit>
std::string rewrite(std::string_view text, const Edit& edit) {
  std::string out;
  yaml::StreamSplitter split(text);
  while (std::optional<yaml::DocumentText> doc = split.next()) {
    std::optional<std::string> changed;
    try {
      changed = edit(*doc);
    } catch (const Error& e) {
      if (!e.in_input()) throw;
    }
    if (changed) {
      out += *changed;
    } else {
      out += doc->text;
    }
  }
  return out;
}

// Takes a split out of one document: pieces after the first are dropped,
// the first gets its Deployment back.
std::optional<std::string> merge_document(const yaml::DocumentText& doc) {
  if (!doc.has_content || doc.text.find(kSplitAnnotation) == std::string_view::npos) {
    return std::nullopt;
  }
  yaml::Tree tree = yaml::parse_document(doc.text, doc.first_line);
  std::optional<Record> r = record_of(tree.root());
  if (!r) return std::nullopt;
  if (r->piece > 1) return std::string();
  std::optional<std::string> restored = restore_scalars(tree, *r);
  if (!restored) return std::nullopt;
  yaml::Tree back = yaml::parse_document(*restored, doc.first_line);
  return apply(back, doc.first_line, unsplit_changes(*r));
}

// One document as the pieces of its split, when it is split.
std::optional<std::string> split_document(const yaml::DocumentText& doc, const SpreadWorld& world,
                                          const ArchLookup& archs) {
  bool candidate = doc.has_content && may_spread(doc.text, world);
  if (!candidate || !doc.text.ends_with('\n')) return std::nullopt;
  yaml::Tree tree = yaml::parse_document(doc.text, doc.first_line);
  std::vector<manifest::Workload> workloads =
      manifest::discover(tree, manifest::KindTable::defaults());
  if (workloads.size() != 1 || record_of(tree.root())) return std::nullopt;
  Plan plan = plan_of(workloads[0], world, archs);
  if (plan.pieces.empty()) return std::nullopt;
  // Pieces after the first start at the document's `---` line (comments
  // before it stay with the first piece, where a later merge finds them).
  std::size_t marker = 0;
  if (doc.explicit_start) {
    while (marker < doc.text.size() && !doc.text.substr(marker).starts_with("---"))
      marker = doc.text.find('\n', marker) + 1;
  }
  std::string pieces;
  for (std::size_t k = 0; k < plan.pieces.size(); ++k) {
    std::optional<std::string> piece =
        apply(tree, doc.first_line, split_changes(workloads[0], plan, k));
    if (!piece) return std::nullopt;
    if (k == 0) {
      pieces += *piece;
    } else if (doc.explicit_start) {
      pieces.append(*piece, marker);
    } else {
      pieces += "---\n" + *piece;
    }
  }
  return pieces;
}

}  // namespace

bool may_spread(std::string_view text, const SpreadWorld& world) {
  // Profiles realised by topology spread split nothing.
  bool profiles = std::any_of(world.profiles().begin(), world.profiles().end(),
                              [](const spread::SpreadProfile& p) {
                                return p.assigns && p.realisation == spread::Realisation::Split;
                              });
  return contains(text, spread::kStrategyAnnotation) || contains(text, kSplitAnnotation) ||
         contains(text, spread::kProfileAnnotation) ||
         ((profiles || !world.stream().distributors.empty()) && contains(text, "Deployment"));
}

std::optional<std::string> respread(std::string_view text, const SpreadWorld& world, Task task,
                                    const ArchLookup& archs) {
  if (task == Task::Lint || !may_spread(text, world)) return std::nullopt;
  std::string merged = rewrite(text, merge_document);
  std::string out = task == Task::Remove ? std::move(merged)
                                         : rewrite(merged, [&](const yaml::DocumentText& doc) {
                                             return split_document(doc, world, archs);
                                           });
  if (out == text) return std::nullopt;
  return out;
}

bool has_topology_profiles(const SpreadWorld& world) {
  return std::any_of(world.profiles().begin(), world.profiles().end(), [](const auto& p) {
    return p.realisation == spread::Realisation::TopologySpread;
  });
}

std::optional<spread::TopologySpread> topology_spread(const manifest::Workload& w,
                                                      const SpreadWorld& world) {
  return detail::plan_of(w, world, nullptr, true).topology;
}

std::vector<placement::Toleration> piece_tolerations(const manifest::Workload& w,
                                                     const SpreadWorld& world) {
  std::vector<placement::Toleration> out;
  if (!world.has_pools() || !w.path.empty() || w.templates.empty()) return out;
  std::optional<Record> r = record_of(w.object);
  if (!r) return out;
  NodeRef value = yaml::lookup_path(w.templates[0].node, {"metadata", "labels", kGroupLabel});
  if (!value.is_scalar()) return out;
  std::optional<SpreadWorld::Group> group = world.group(r->key, std::string(value.scalar()));
  if (!group) return out;  // analyze_spreads says why
  for (const nodepools::Taint& t : group->taints) {
    out.push_back(placement::Toleration{t.key, t.value.empty() ? "Exists" : "Equal", t.value,
                                        t.effect, std::nullopt});
  }
  return out;
}

void analyze_spreads(const DocumentView& doc, const SpreadWorld& world, const ArchLookup& archs,
                     bool splits, std::vector<findings::Finding>& findings) {
  for (const manifest::Workload& w : doc.workloads) {
    if (w.kind == "Job" || w.kind == "CronJob" || w.templates.empty()) continue;  // as the webhooks
    std::optional<Record> record = w.path.empty() ? record_of(w.object) : std::nullopt;
    if (record && world.has_pools()) {
      // A piece's tolerations come from its group's pools, when archfit could look.
      NodeRef value = yaml::lookup_path(w.templates[0].node, {"metadata", "labels", kGroupLabel});
      if (value.is_scalar() && !world.group(record->key, std::string(value.scalar()))) {
        findings.push_back(finding(
            "pools-not-checked",
            "archfit did not find the taints of the pools of " + w.kind + " \"" + w.name +
                "\"'s group " + record->key + "=" + std::string(value.scalar()) +
                " (so fix gives its pods none of their tolerations): that would take more than "
                "the steps a run of this size may take (docs/node-pools.md, \"Many pools\")",
            doc, w));
      }
    }
    Plan plan = plan_of(w, world, archs);
    if (!plan.spec) continue;
    if (plan.spec->webhook) {
      findings.push_back(finding(
          "spread-webhook",
          "the spread of " + w.kind + " \"" + w.name + "\" comes from " + plan.spec->origin +
              ", which an in-cluster spreading webhook also reads: while one "
              "runs, it places these pods itself and overrides archfit's split",
          doc, w));
    }
    if (record) continue;  // a piece of a split
    const bool topology = plan.spec->profile != nullptr &&
                          plan.spec->profile->realisation == spread::Realisation::TopologySpread;
    if (!plan.refused.empty()) {
      findings.push_back(finding("spread-refused",
                                 "archfit does not " + std::string(topology ? "spread" : "split") +
                                     " " + w.kind + " \"" + w.name + "\" (" + plan.spec->origin +
                                     "): " + plan.refused,
                                 doc, w));
      continue;
    }
    if (topology) continue;  // placement writes it, and says so
    for (const std::string& why : plan.excluded) {
      findings.push_back(finding("spread-group-excluded",
                                 w.kind + " \"" + w.name + "\" (" + plan.spec->origin + "): " + why,
                                 doc, w));
    }
    std::string list;
    for (const Piece& p : plan.pieces) {
      list += (list.empty() ? "" : ", ") + p.name + " (" + std::to_string(p.replicas) + " on " +
              p.group.label_key + "=" + p.group.label_value + ")";
    }
    std::string message = w.kind + " \"" + w.name + "\" asks for a weighted spread (" +
                          plan.spec->origin + "); archfit fix splits its " +
                          std::to_string(plan.replicas) + " replicas into " + list;
    if (!splits) message += " (not here: run archfit fix on the manifests)";
    findings::Finding f = finding("spread-not-split", std::move(message), doc, w);
    f.fixable = splits;
    findings.push_back(std::move(f));
  }
}

}  // namespace archfit::spread
