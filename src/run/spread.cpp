#include <algorithm>
#include <charconv>
#include <map>

#include <archfit/base/error.hpp>
#include <archfit/base/text.hpp>
#include <archfit/edit/document.hpp>
#include <archfit/manifest/discover.hpp>
#include <archfit/pools/allocation.hpp>
#include <archfit/report/rules.hpp>
#include <archfit/run/spread.hpp>
#include <archfit/yaml/parse.hpp>
#include <archfit/yaml/stream.hpp>
#include <archfit/yaml/value.hpp>

namespace archfit::run {

namespace {

using yaml::NodeRef;
using yaml::Value;

NodeRef field(NodeRef mapping, std::string_view key) {
  NodeRef m = mapping.resolved();
  return m.is_mapping() ? yaml::lookup(m, key).resolved() : NodeRef();
}

NodeRef at(NodeRef node, std::initializer_list<std::string_view> path) {
  for (std::string_view k : path)
    node = field(node, k);
  return node;
}

std::string text_of(NodeRef node) {
  return node.is_scalar() ? std::string(node.scalar()) : "";
}

// The record of a piece, as its annotation writes it.
struct Record {
  std::size_t piece = 0;  // 1-based
  std::size_t pieces = 0;
  std::string name;
  std::string replicas;  // as written; "-" when there was none
  std::string key;       // the group's node label, added to the nodeSelector
  bool created_node_selector = false;
  bool created_annotations = false;

  std::string str() const {
    std::string out = std::to_string(piece) + "/" + std::to_string(pieces) + " of " + name +
                      " replicas=" + replicas + " key=" + key;
    if (created_node_selector) out += " +nodeSelector";
    if (created_annotations) out += " +annotations";
    return out;
  }
  static std::optional<Record> parse(std::string_view text) {
    Record r;
    std::vector<std::string_view> words;
    for (std::size_t at = 0; at < text.size();) {
      std::size_t end = text.find(' ', at);
      if (end == std::string_view::npos) end = text.size();
      if (end > at) words.push_back(text.substr(at, end - at));
      at = end + 1;
    }
    if (words.size() < 5 || words[1] != "of" || !words[3].starts_with("replicas=") ||
        !words[4].starts_with("key=")) {
      return std::nullopt;
    }
    std::size_t slash = words[0].find('/');
    if (slash == std::string_view::npos) return std::nullopt;
    auto number = [](std::string_view s, std::size_t& out) {
      auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), out);
      return error == std::errc() && end == s.data() + s.size() && out > 0;
    };
    if (!number(words[0].substr(0, slash), r.piece) ||
        !number(words[0].substr(slash + 1), r.pieces) || r.piece > r.pieces) {
      return std::nullopt;
    }
    r.name = std::string(words[2]);
    r.replicas = std::string(words[3].substr(9));
    r.key = std::string(words[4].substr(4));
    for (std::size_t i = 5; i < words.size(); ++i) {
      if (words[i] == "+nodeSelector") {
        r.created_node_selector = true;
      } else if (words[i] == "+annotations") {
        r.created_annotations = true;
      } else {
        return std::nullopt;
      }
    }
    return r;
  }
};

std::optional<Record> record_of(NodeRef root) {
  NodeRef value = at(root, {"metadata", "annotations", kSplitAnnotation});
  if (!value.is_scalar()) return std::nullopt;
  return Record::parse(value.scalar());
}

// What a Deployment's spread asks for and where it was said.
struct Spec {
  std::vector<pools::StrategyGroup> groups;
  std::string origin;
  std::string invalid;  // the annotation does not read
};

// The node label of a pool named by a profile's group.
std::optional<std::pair<std::string, std::string>> pool_label(const std::string& name,
                                                              const SpreadWorld& world) {
  for (const pools::Pool& p : world.pools) {
    if (p.name != name) continue;
    switch (p.source) {
      case pools::PoolSource::NodePool:
        return std::pair<std::string, std::string>{"karpenter.sh/nodepool", name};
      case pools::PoolSource::Provisioner:
        return std::pair<std::string, std::string>{"karpenter.sh/provisioner-name", name};
      case pools::PoolSource::NodeGroup:
        return std::pair<std::string, std::string>{p.path.starts_with("managedNodeGroups")
                                                       ? "eks.amazonaws.com/nodegroup"
                                                       : "alpha.eksctl.io/nodegroup-name",
                                                   name};
      case pools::PoolSource::Declared:
        if (p.labels.empty()) return std::nullopt;
        return p.labels.front();
    }
  }
  return std::nullopt;
}

Spec spec_of_profile(const pools::SpreadProfile& profile, const SpreadWorld& world) {
  Spec s;
  s.origin = "spread profile \"" + profile.name + "\"";
  for (const pools::ProfileGroup& g : profile.groups) {
    if (g.pool.empty()) {
      s.groups.push_back(pools::StrategyGroup{g.label_key, g.label_value, g.share});
      continue;
    }
    std::optional<std::pair<std::string, std::string>> label = pool_label(g.pool, world);
    if (!label) {
      s.invalid =
          "the profile names pool \"" + g.pool +
          "\", which is not among the pools archfit knows (or a declared pool without labels)";
      return s;
    }
    s.groups.push_back(pools::StrategyGroup{label->first, label->second, g.share});
  }
  return s;
}

std::optional<Spec> spec_of(const manifest::Workload& w, const SpreadWorld& world) {
  NodeRef annotation = at(w.object, {"metadata", "annotations", pools::kStrategyAnnotation});
  if (annotation.is_scalar()) {
    Spec s;
    s.origin = std::string("its annotation ") + pools::kStrategyAnnotation;
    std::string why;
    std::optional<std::vector<pools::StrategyGroup>> groups =
        pools::try_parse_strategy(annotation.scalar(), &why);
    if (groups) {
      s.groups = std::move(*groups);
    } else {
      s.invalid = why;
    }
    return s;
  }
  NodeRef named = at(w.object, {"metadata", "annotations", pools::kProfileAnnotation});
  if (named.is_scalar()) {
    for (const pools::SpreadProfile& p : world.profiles) {
      if (p.name == named.scalar()) return spec_of_profile(p, world);
    }
    std::string known;
    for (const pools::SpreadProfile& p : world.profiles)
      known += (known.empty() ? "" : ", ") + p.name;
    return Spec{{},
                std::string("its annotation ") + pools::kProfileAnnotation,
                "it names the profile \"" + std::string(named.scalar()) +
                    "\", which spread.profiles does not have" +
                    (known.empty() ? std::string(" (it has none)") : " (it has " + known + ")")};
  }
  for (const pools::Distributor& d : world.distributors) {
    if (d.target_name != w.name || d.namespace_name != w.namespace_name) continue;
    if (!d.target_kind.empty() && d.target_kind != w.kind) continue;
    return Spec{d.groups, d.title(), ""};
  }
  for (const pools::SpreadProfile& p : world.profiles) {
    if (p.selects(w.labels, w.namespace_name)) return spec_of_profile(p, world);
  }
  return std::nullopt;
}

struct Piece {
  std::string name;
  const pools::StrategyGroup* group = nullptr;
  std::uint32_t replicas = 0;
};

struct Plan {
  std::optional<Spec> spec;
  std::string refused;  // why the Deployment is not split
  std::vector<std::string> excluded;
  std::vector<Piece> pieces;
  std::uint32_t replicas = 0;
};

std::string derived_name(const std::string& name, const std::string& value) {
  std::string out = name + "-";
  for (char c : value) {
    char l = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    out += (std::isalnum(static_cast<unsigned char>(l)) != 0) ? l : '-';
  }
  while (out.back() == '-')
    out.pop_back();
  return out;
}

std::string join_archs(const std::set<std::string>& archs) {
  std::string out;
  for (const std::string& a : archs)
    out += (out.empty() ? "" : ", ") + a;
  return out;
}

Plan plan_of(const manifest::Workload& w, const SpreadWorld& world, const ArchLookup& archs) {
  Plan plan;
  plan.spec = spec_of(w, world);
  if (!plan.spec) return plan;
  const Spec& spec = *plan.spec;
  auto refuse = [&plan](std::string why) {
    plan.refused = std::move(why);
    return plan;
  };
  if (!spec.invalid.empty()) return refuse(spec.invalid);
  if (w.kind != "Deployment") {
    return refuse("only Deployments are split; a " + w.kind +
                  " keeps its pods' identity or runs to completion, so archfit leaves it to the "
                  "scheduler");
  }
  if (!w.path.empty()) return refuse("it is an item of a List; split it as a document of its own");
  if (world.autoscaled.contains(w.namespace_name + "/" + w.name)) {
    return refuse(
        "an autoscaler (HorizontalPodAutoscaler or ScaledObject) scales it, and would "
        "scale each piece on its own; use a topology spread instead");
  }
  NodeRef name = at(w.object, {"metadata", "name"});
  if (!name.is_scalar() || name.style() != yaml::Style::Plain)
    return refuse("metadata.name is not written as a plain scalar");
  NodeRef replicas = at(w.object, {"spec", "replicas"});
  plan.replicas = 1;
  if (replicas) {
    yaml::Resolved r = replicas.resolve();
    if (!replicas.is_scalar() || replicas.style() != yaml::Style::Plain ||
        r.type != yaml::ScalarType::Int || r.integer < 0 || r.integer > pools::kMaxReplicas) {
      return refuse("spec.replicas is not a plain integer from 0 to " +
                    std::to_string(pools::kMaxReplicas));
    }
    plan.replicas = static_cast<std::uint32_t>(r.integer);
  }
  if (!at(w.object, {"spec", "selector", "matchLabels"}).is_mapping())
    return refuse("spec.selector has no matchLabels for the piece's own label");
  const manifest::PodTemplate& t = w.templates.at(0);
  NodeRef labels = at(t.node, {"metadata", "labels"});
  if (!labels.is_mapping()) return refuse("the pod template has no labels");
  NodeRef node_selector = field(t.spec, "nodeSelector");
  if (node_selector && !node_selector.is_null() && !node_selector.is_mapping())
    return refuse("the pod template's nodeSelector is not a mapping");
  // Groups whose nodes cannot run the images are left out.
  std::optional<std::set<std::string>> image_archs = archs ? archs(t) : std::nullopt;
  std::vector<const pools::StrategyGroup*> kept;
  for (const pools::StrategyGroup& g : spec.groups) {
    if (node_selector.is_mapping() && field(node_selector, g.label_key)) {
      return refuse("the pod template already selects " + g.label_key +
                    " in its nodeSelector; the pieces would each need their own value");
    }
    std::set<std::string> group_archs;
    bool known = false;
    if (g.label_key == pools::kArchLabel) {
      group_archs.insert(g.label_value);
      known = true;
    }
    for (const pools::Pool& p : world.pools) {
      if (!p.domain(g.label_key).allows(g.label_value)) continue;
      std::set<std::string> a =
          p.archs({"amd64", "arm64", "ppc64le", "s390x", "386", "arm", "riscv64"});
      group_archs.insert(a.begin(), a.end());
      known = true;
    }
    bool runs = !known || !image_archs ||
                std::any_of(image_archs->begin(), image_archs->end(),
                            [&](const std::string& a) { return group_archs.contains(a); });
    if (!runs) {
      plan.excluded.push_back("group " + g.label_key + "=" + g.label_value +
                              " is left out: its nodes run " + join_archs(group_archs) +
                              ", the images run on " + join_archs(*image_archs));
      continue;
    }
    kept.push_back(&g);
  }
  if (kept.empty()) return refuse("no group's nodes run the images");
  std::vector<pools::Share> shares;
  for (const pools::StrategyGroup* g : kept)
    shares.push_back(g->share);
  std::string why;
  std::optional<std::vector<std::uint32_t>> counts =
      pools::try_allocate(plan.replicas, shares, &why);
  if (!counts) return refuse(why);
  std::set<std::string> names;
  for (std::size_t i = 0; i < kept.size(); ++i) {
    Piece p{derived_name(w.name, kept[i]->label_value), kept[i], (*counts)[i]};
    if (!names.insert(p.name).second || p.name.size() > 253)
      return refuse("the pieces' names (" + p.name + ") would not be distinct valid names");
    plan.pieces.push_back(std::move(p));
  }
  return plan;
}

std::vector<yaml::FieldChange> split_changes(const manifest::Workload& w, const Plan& plan,
                                             std::size_t k) {
  const Piece& p = plan.pieces[k];
  const manifest::PodTemplate& t = w.templates.at(0);
  Record r;
  r.piece = k + 1;
  r.pieces = plan.pieces.size();
  r.name = w.name;
  NodeRef replicas = at(w.object, {"spec", "replicas"});
  r.replicas = replicas ? std::string(replicas.text()) : "-";
  r.key = p.group->label_key;
  NodeRef node_selector = field(t.spec, "nodeSelector");
  r.created_node_selector = !node_selector.is_mapping();
  NodeRef annotations = at(w.object, {"metadata", "annotations"});
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
  set({"spec", "selector", "matchLabels", kGroupLabel}, Value::string(p.group->label_value));
  set({"spec", "template", "metadata", "labels", kGroupLabel}, Value::string(p.group->label_value));
  if (r.created_node_selector) {
    Value ns = Value::mapping();
    ns.set(p.group->label_key, Value::string(p.group->label_value));
    set({"spec", "template", "spec", "nodeSelector"}, std::move(ns));
    // Right after the containers: where a later split puts it again, ahead
    // of what placement appends at the end of the pod spec.
    std::size_t containers = yaml::find_key(t.spec, "containers");
    if (containers != NodeRef::npos) out.back().position = containers + 1;
  } else {
    set({"spec", "template", "spec", "nodeSelector", p.group->label_key},
        Value::string(p.group->label_value));
  }
  return out;
}

// The changes that take a piece's split out again.
std::optional<std::vector<yaml::FieldChange>> unsplit_changes(const Record& r) {
  std::vector<yaml::FieldChange> out;
  auto set = [&out](std::vector<std::string> path, Value v) {
    out.push_back(yaml::FieldChange{std::move(path), std::move(v), false, std::nullopt});
  };
  auto remove = [&out](std::vector<std::string> path) {
    out.push_back(yaml::FieldChange{std::move(path), Value(), true, std::nullopt});
  };
  set({"metadata", "name"}, Value::string(r.name));
  if (r.created_annotations) {
    remove({"metadata", "annotations"});
  } else {
    remove({"metadata", "annotations", kSplitAnnotation});
  }
  if (r.replicas == "-") {
    remove({"spec", "replicas"});
  } else {
    yaml::Resolved n = yaml::resolve_plain(r.replicas);
    if (n.type != yaml::ScalarType::Int) return std::nullopt;
    set({"spec", "replicas"}, Value::integer(n.integer));
  }
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
  std::vector<edit::TemplateEdit> edits{edit::TemplateEdit{tree.root(), "", &changes}};
  edit::DocumentResult r = edit::edit_document(tree, first_line, edits);
  if (!r.uneditable.empty() || !r.unverified.empty()) return std::nullopt;
  return r.changed ? r.text : std::string(tree.text());
}

placement::Finding finding(std::string rule, std::string message, const DocumentView& doc,
                           const manifest::Workload& w) {
  placement::Finding f;
  f.severity = report::rule(rule).severity;
  f.rule = std::move(rule);
  f.message = std::move(message);
  f.file = doc.file;
  f.document = doc.document;
  f.line = w.object.line();
  f.column = w.object.column();
  f.resource = {w.api_version, w.kind, w.name, w.namespace_name};
  return f;
}

// Takes every split of the text out: pieces after the first are dropped,
// the first gets its Deployment back.
std::string merge(std::string_view text) {
  std::string out;
  yaml::StreamSplitter split(text);
  while (std::optional<yaml::DocumentText> doc = split.next()) {
    if (!doc->has_content || doc->text.find(kSplitAnnotation) == std::string_view::npos) {
      out += doc->text;
      continue;
    }
    yaml::Tree tree = yaml::parse_document(doc->text, doc->first_line);
    std::optional<Record> r = record_of(tree.root());
    if (!r) {
      out += doc->text;
      continue;
    }
    if (r->piece > 1) continue;
    std::optional<std::vector<yaml::FieldChange>> changes = unsplit_changes(*r);
    std::optional<std::string> undone =
        changes ? apply(tree, doc->first_line, *changes) : std::nullopt;
    out += undone ? *undone : std::string(doc->text);
  }
  return out;
}

std::string split(std::string_view text, const SpreadWorld& world, const ArchLookup& archs) {
  std::string out;
  yaml::StreamSplitter splitter(text);
  while (std::optional<yaml::DocumentText> doc = splitter.next()) {
    bool candidate = doc->has_content && may_spread(doc->text, world);
    if (!candidate || (!doc->text.ends_with('\n'))) {
      out += doc->text;
      continue;
    }
    yaml::Tree tree = yaml::parse_document(doc->text, doc->first_line);
    std::vector<manifest::Workload> workloads =
        manifest::discover(tree, manifest::KindTable::defaults());
    if (workloads.size() != 1 || record_of(tree.root())) {
      out += doc->text;
      continue;
    }
    Plan plan = plan_of(workloads[0], world, archs);
    if (plan.pieces.empty()) {
      out += doc->text;
      continue;
    }
    // Pieces after the first start at the document's `---` line (comments
    // before it stay with the first piece, where a later merge finds them).
    std::size_t marker = 0;
    if (doc->explicit_start) {
      while (marker < doc->text.size() && !doc->text.substr(marker).starts_with("---"))
        marker = doc->text.find('\n', marker) + 1;
    }
    std::string pieces;
    bool ok = true;
    for (std::size_t k = 0; k < plan.pieces.size() && ok; ++k) {
      std::optional<std::string> piece =
          apply(tree, doc->first_line, split_changes(workloads[0], plan, k));
      ok = piece.has_value();
      if (!ok) break;
      if (k == 0) {
        pieces += *piece;
      } else if (doc->explicit_start) {
        pieces.append(*piece, marker);
      } else {
        pieces += "---\n" + *piece;
      }
    }
    out += ok ? pieces : std::string(doc->text);
  }
  return out;
}

}  // namespace

SpreadWorld spread_world(const std::vector<FileResult>& files, std::vector<pools::Pool> pools,
                         std::vector<pools::SpreadProfile> profiles) {
  SpreadWorld world;
  world.pools = std::move(pools);
  world.profiles = std::move(profiles);
  for (const FileResult& file : files) {
    const std::string& text = file.original;
    bool distributors = pools::may_hold_distributors(text);
    bool scalers = contains(text, "HorizontalPodAutoscaler") || contains(text, "ScaledObject");
    if (!distributors && !scalers) continue;
    yaml::StreamSplitter split(text);
    while (std::optional<yaml::DocumentText> doc = split.next()) {
      if (!doc->has_content) continue;
      bool d = pools::may_hold_distributors(doc->text);
      bool s =
          contains(doc->text, "HorizontalPodAutoscaler") || contains(doc->text, "ScaledObject");
      if (!d && !s) continue;
      try {
        yaml::Tree tree = yaml::parse_document(doc->text, doc->first_line);
        NodeRef root = tree.root();
        if (std::optional<pools::Distributor> dist = pools::read_distributor(root)) {
          dist->file = file.input.name;
          world.distributors.push_back(std::move(*dist));
          continue;
        }
        std::string kind = text_of(field(root, "kind"));
        if (kind != "HorizontalPodAutoscaler" && kind != "ScaledObject") continue;
        NodeRef target = at(root, {"spec", "scaleTargetRef"});
        std::string target_kind = text_of(field(target, "kind"));
        if (target_kind.empty() || target_kind == "Deployment") {
          world.autoscaled.insert(text_of(at(root, {"metadata", "namespace"})) + "/" +
                                  text_of(field(target, "name")));
        }
      } catch (const Error& e) {
        throw e.where().file.empty() ? e.in_file(file.input.name) : e;
      }
    }
  }
  return world;
}

bool may_spread(std::string_view text, const SpreadWorld& world) {
  bool profiles = std::any_of(world.profiles.begin(), world.profiles.end(),
                              [](const pools::SpreadProfile& p) { return p.assigns; });
  return contains(text, pools::kStrategyAnnotation) || contains(text, kSplitAnnotation) ||
         contains(text, pools::kProfileAnnotation) ||
         ((profiles || !world.distributors.empty()) && contains(text, "Deployment"));
}

std::optional<std::string> respread(std::string_view text, const SpreadWorld& world, Task task,
                                    const ArchLookup& archs) {
  if (task == Task::Lint || !may_spread(text, world)) return std::nullopt;
  std::string merged = merge(text);
  std::string out = task == Task::Remove ? std::move(merged) : split(merged, world, archs);
  if (out == text) return std::nullopt;
  return out;
}

void SpreadAnalyzer::analyze(const DocumentView& doc,
                             std::vector<placement::Finding>& findings) const {
  for (const manifest::Workload& w : doc.workloads) {
    if (w.kind == "Job" || w.kind == "CronJob" || w.templates.empty()) continue;  // as the webhooks
    std::optional<Record> record = w.path.empty() ? record_of(w.object) : std::nullopt;
    Plan plan = plan_of(w, world_, archs_);
    if (!plan.spec) continue;
    findings.push_back(
        finding("spread-webhook",
                "the spread of " + w.kind + " \"" + w.name + "\" comes from " + plan.spec->origin +
                    ", which an in-cluster spreading webhook also reads: while one "
                    "runs, it places these pods itself and overrides archfit's split",
                doc, w));
    if (record) continue;  // a piece of a split
    if (!plan.refused.empty()) {
      findings.push_back(finding("spread-refused",
                                 "archfit does not split " + w.kind + " \"" + w.name + "\" (" +
                                     plan.spec->origin + "): " + plan.refused,
                                 doc, w));
      continue;
    }
    for (const std::string& why : plan.excluded) {
      findings.push_back(finding("spread-group-excluded",
                                 w.kind + " \"" + w.name + "\" (" + plan.spec->origin + "): " + why,
                                 doc, w));
    }
    std::string list;
    for (const Piece& p : plan.pieces) {
      list += (list.empty() ? "" : ", ") + p.name + " (" + std::to_string(p.replicas) + " on " +
              p.group->label_key + "=" + p.group->label_value + ")";
    }
    std::string message = w.kind + " \"" + w.name + "\" asks for a weighted spread (" +
                          plan.spec->origin + "); archfit fix splits its " +
                          std::to_string(plan.replicas) + " replicas into " + list;
    if (!splits_) message += " (not here: run archfit fix on the manifests)";
    placement::Finding f = finding("spread-not-split", std::move(message), doc, w);
    f.fixable = splits_;
    findings.push_back(std::move(f));
  }
}

}  // namespace archfit::run
