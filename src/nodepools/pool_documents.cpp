#include <algorithm>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include <archfit/base/error.hpp>
#include <archfit/base/key_index.hpp>
#include <archfit/edit/document.hpp>
#include <archfit/findings/rules.hpp>
#include <archfit/nodepools/model/feasibility.hpp>
#include <archfit/nodepools/model/read.hpp>
#include <archfit/nodepools/model/spread_labels.hpp>
#include <archfit/nodepools/pool_documents.hpp>
#include <archfit/placement/ownership.hpp>
#include <archfit/yaml/parse.hpp>
#include <archfit/yaml/path.hpp>
#include <archfit/yaml/stream.hpp>
#include <archfit/yaml/value.hpp>

namespace archfit::nodepools {

namespace {

using yaml::Value;

findings::Finding finding(std::string rule, std::string message, const std::string& file,
                          std::uint32_t document, yaml::NodeRef at,
                          findings::ResourceRef resource) {
  return findings::make_finding(rule, std::move(message), {file, document, at.line(), at.column()},
                                std::move(resource));
}

std::vector<std::string> taints_path(const nodepools::Pool& p) {
  if (p.source == nodepools::PoolSource::NodePool) return {"spec", "template", "spec", "taints"};
  return {"spec", "taints"};
}

std::vector<std::string> requirements_path(const nodepools::Pool& p) {
  if (p.source == nodepools::PoolSource::NodePool)
    return {"spec", "template", "spec", "requirements"};
  return {"spec", "requirements"};
}

Value taint_value(const nodepools::Taint& t) {
  Value out = Value::mapping();
  out.set("key", Value::string(t.key));
  if (!t.value.empty()) out.set("value", Value::string(t.value));
  out.set("effect", Value::string(t.effect));
  return out;
}

Value requirement_value(const nodepools::Requirement& r) {
  Value out = Value::mapping();
  out.set("key", Value::string(r.key));
  out.set("operator", Value::string("In"));
  Value values = Value::sequence();
  for (const std::string& v : r.values)
    values.items().push_back(Value::string(v));
  out.set("values", std::move(values));
  return out;
}

// A list of a Karpenter pool that fix appends to (taints, requirements).
struct PoolList {
  std::vector<std::string> path;
  std::optional<Value> user;  // as the user wrote it: without archfit's items
  std::vector<Value> add;     // what fix appends
};

// A Karpenter pool's lists and annotations as the user wrote them: without
// what the pool's record says archfit added (and still holds as written).
struct UserPool {
  std::vector<PoolList> lists;
  std::optional<Value> annotations;
  std::string refused;  // why the record cannot be read
};

const std::vector<std::string> kAnnotationsPath = {"metadata", "annotations"};

UserPool user_pool(const Value& object, const std::vector<std::vector<std::string>>& paths) {
  UserPool out;
  const Value* current_annotations = yaml::lookup(object, yaml::key_path(kAnnotationsPath));
  std::optional<placement::Ownership> record;
  const Value* owned = current_annotations != nullptr && current_annotations->is_mapping()
                           ? current_annotations->find(placement::kOwnedAnnotation)
                           : nullptr;
  if (owned != nullptr) {
    std::string why = "not a string";
    record =
        owned->is_string() ? placement::Ownership::parse(owned->as_string(), &why) : std::nullopt;
    if (!record) {
      out.refused = "its annotation " + std::string(placement::kOwnedAnnotation) +
                    " cannot be read (" + why + ")";
      return out;
    }
  }
  static const std::vector<placement::OwnedEntry> kNone;
  const std::vector<placement::OwnedEntry>& entries = record ? record->entries : kNone;
  bool created_annotations = false;
  for (const std::vector<std::string>& path : paths) {
    PoolList& list = out.lists.emplace_back();
    list.path = path;
    const Value* current = yaml::lookup(object, yaml::key_path(path));
    const placement::Path where = yaml::key_path(path);
    std::set<std::size_t> ours;
    bool created = false;
    for (const placement::OwnedEntry& e : entries) {
      if (e.kind == placement::OwnedEntry::Kind::Created) {
        created = created || e.path == where;
        created_annotations = created_annotations || e.path == yaml::key_path(kAnnotationsPath);
        continue;
      }
      bool inside =
          e.kind == placement::OwnedEntry::Kind::Wrote && e.path.size() == where.size() + 1 &&
          std::equal(where.begin(), where.end(), e.path.begin()) && e.path.back().is_index;
      if (inside && current != nullptr && current->is_sequence() &&
          e.path.back().index < current->items().size() &&
          placement::data_hash(current->items()[e.path.back().index]) == e.hash) {
        ours.insert(e.path.back().index);  // still as archfit wrote it
      }
    }
    if (current == nullptr) continue;
    if (!current->is_sequence()) {
      list.user = *current;
      continue;
    }
    Value::Sequence kept;
    for (std::size_t i = 0; i < current->items().size(); ++i) {
      if (!ours.contains(i)) kept.push_back(current->items()[i]);
    }
    if (!(created && kept.empty())) list.user = Value::sequence(std::move(kept));
  }
  if (current_annotations != nullptr) {
    Value a = *current_annotations;
    if (a.is_mapping()) a.erase(placement::kOwnedAnnotation);
    if (!(created_annotations && a.is_mapping() && a.entries().empty()))
      out.annotations = std::move(a);
  }
  return out;
}

std::vector<nodepools::Taint> taints_of(const std::optional<Value>& list) {
  std::vector<nodepools::Taint> out;
  if (!list || !list->is_sequence()) return out;
  auto text = [](const Value& item, std::string_view key) {
    const Value* v = item.find(key);
    return v != nullptr && v->is_string() ? v->as_string() : std::string();
  };
  for (const Value& item : list->items())
    out.push_back(nodepools::Taint{text(item, "key"), text(item, "value"), text(item, "effect")});
  return out;
}

// The changes from the object to the user's pool with each list's `add`
// appended and recorded.
std::vector<yaml::FieldChange> pool_changes(const Value& object, UserPool user) {
  placement::Ownership record;
  bool adds = false;
  for (PoolList& list : user.lists) {
    if (list.add.empty()) continue;
    adds = true;
    if (!list.user) {
      record.entries.push_back(
          {placement::OwnedEntry::Kind::Created, yaml::key_path(list.path), 0, 0, {}, {}});
      list.user = Value::sequence();
    }
    for (Value& v : list.add) {
      placement::Path p = yaml::key_path(list.path);
      p.push_back(placement::PathStep::at(list.user->items().size()));
      record.entries.push_back(
          {placement::OwnedEntry::Kind::Wrote, p, placement::data_hash(v), 0, {}, {}});
      list.user->items().push_back(std::move(v));
    }
  }
  if (adds) {
    if (!user.annotations) {
      record.entries.push_back(
          {placement::OwnedEntry::Kind::Created, yaml::key_path(kAnnotationsPath), 0, 0, {}, {}});
      user.annotations = Value::mapping();
    }
    std::stable_sort(record.entries.begin(), record.entries.end(),
                     [](const placement::OwnedEntry& a, const placement::OwnedEntry& b) {
                       return placement::path_less(a.path, b.path);
                     });
    user.annotations->set(placement::kOwnedAnnotation, Value::string(record.str()));
  }
  std::vector<yaml::FieldChange> out;
  auto change = [&out](const std::vector<std::string>& path, const Value* from,
                       const std::optional<Value>& to) {
    if (to && (from == nullptr || !(*from == *to))) {
      out.push_back(yaml::FieldChange{path, *to, false, std::nullopt});
    } else if (!to && from != nullptr) {
      out.push_back(yaml::FieldChange{path, Value(), true, std::nullopt});
    }
  };
  for (const PoolList& list : user.lists)
    change(list.path, yaml::lookup(object, yaml::key_path(list.path)), list.user);
  change(kAnnotationsPath, yaml::lookup(object, yaml::key_path(kAnnotationsPath)),
         user.annotations);
  return out;
}

// What topology spread profiles ask of a pool's requirements (`user`: as
// the user wrote them): the requirements it lacks, and the problems with
// those it has on the same label.
struct SpreadNeeds {
  std::vector<nodepools::Requirement> missing;
  std::vector<std::pair<std::string, std::string>> conflicts;  // key, what is wrong
};

SpreadNeeds spread_needs(const nodepools::Pool& pool,
                         const std::vector<nodepools::Requirement>& user,
                         const nodepools::SpreadLabels& labels) {
  SpreadNeeds out;
  const std::vector<nodepools::Requirement>& given = labels.of(pool.name);
  if (given.empty()) return out;
  // The first requirement of each key.
  std::unordered_map<std::string_view, const nodepools::Requirement*, KeyedHash> first;
  for (const nodepools::Requirement& r : user)
    first.try_emplace(r.key, &r);
  for (const nodepools::Requirement& wanted : given) {
    auto found = first.find(wanted.key);
    if (found == first.end()) {
      out.missing.push_back(wanted);
      continue;
    }
    const nodepools::Requirement* has = found->second;
    std::set<std::string> a(has->values.begin(), has->values.end());
    std::set<std::string> b(wanted.values.begin(), wanted.values.end());
    if (has->op != nodepools::Operator::In || a != b)
      out.conflicts.emplace_back(wanted.key, "its requirement " + nodepools::describe(*has) +
                                                 " is not the " + nodepools::describe(wanted) +
                                                 " that spread.profiles give it");
  }
  return out;
}

std::vector<nodepools::Requirement> requirements_of(const std::optional<Value>& list,
                                                    const nodepools::Pool& pool) {
  if (!list || !list->is_sequence()) return {};
  std::unordered_set<std::string_view, KeyedHash> written;
  for (const Value& v : list->items()) {
    const Value* key = v.find("key");
    if (key != nullptr && key->is_string()) written.insert(key->as_string());
  }
  std::vector<nodepools::Requirement> out;
  for (const nodepools::Requirement& r : pool.requirements) {
    if (written.contains(r.key)) out.push_back(r);
  }
  return out;
}

}  // namespace

std::vector<nodepools::Pool> stream_pools(const std::vector<FileResult>& files,
                                          const std::vector<Setting>& settings) {
  std::vector<nodepools::Pool> out;
  for (const FileResult& file : files) {
    if (!nodepools::may_hold_pools(file.original)) continue;
    nodepools::ReadOptions options{settings[file.setting].config->node_pools.instance_archs};
    yaml::StreamSplitter split(file.original);
    std::uint32_t index = 0;
    for (std::optional<yaml::DocumentText> doc = split.next(); doc; doc = split.next(), ++index) {
      if (!doc->has_content || !nodepools::may_hold_pools(doc->text)) continue;
      try {
        yaml::Tree tree = yaml::parse_document(doc->text, doc->first_line);
        for (nodepools::Pool& p : nodepools::read_pools(tree.root(), options)) {
          p.file = file.input.name;
          p.document = index;
          out.push_back(std::move(p));
        }
      } catch (const Error& e) {
        // A pool that cannot be read is no pool: the run reports it where it
        // analyses the document.
        if (!e.in_input()) throw e.where().file.empty() ? e.in_file(file.input.name) : e;
      }
    }
  }
  return out;
}

nodepools::ArchTaints arch_taints(const placement::Config& config) {
  nodepools::ArchTaints out;
  for (const image::Platform& p : config.cluster_platforms)
    out.cluster.insert(p.architecture);
  for (const auto& [arch, conventions] : config.architectures) {
    if (!out.cluster.contains(arch)) continue;
    std::vector<nodepools::Taint>& taints = out.by_arch[arch];
    for (const placement::Toleration& t : conventions.tolerations) {
      if (t.key.empty()) continue;
      taints.push_back(nodepools::Taint{t.key, t.op == "Exists" ? "" : t.value,
                                        t.effect.empty() ? "NoSchedule" : t.effect});
    }
  }
  return out;
}

PoolDocument analyze_pool_document(const yaml::Tree& tree, std::uint32_t first_line,
                                   const std::string& file, std::uint32_t document,
                                   const placement::Config& config,
                                   const nodepools::SpreadLabels& labels, Task task) {
  PoolDocument out;
  yaml::NodeRef root = tree.root();
  std::vector<nodepools::Pool> found =
      nodepools::read_pools(root, nodepools::ReadOptions{config.node_pools.instance_archs});
  if (found.empty()) return out;
  nodepools::ArchTaints conventions = arch_taints(config);
  const bool may_edit = task == Task::Remove || (task == Task::Fix && config.node_pools.fix);
  // fix appends to a Karpenter pool's taints and requirements when they are
  // lists or not there.
  Value object = yaml::to_value(root);
  auto editable = [&object](const nodepools::Pool& pool) {
    const Value* taints = yaml::lookup(object, yaml::key_path(taints_path(pool)));
    const Value* requirements = yaml::lookup(object, yaml::key_path(requirements_path(pool)));
    return pool.karpenter() && (taints == nullptr || taints->is_sequence()) &&
           (requirements == nullptr || requirements->is_sequence());
  };
  auto resource = [](const nodepools::Pool& pool) {
    return findings::ResourceRef{pool.api_version, pool.kind, pool.name, ""};
  };
  for (nodepools::Pool& pool : found) {
    pool.file = file;
    pool.document = document;
    bool fixable = editable(pool) && config.node_pools.fix;
    for (nodepools::PoolProblem& problem : nodepools::lint_pool(pool, conventions)) {
      yaml::NodeRef at = pool.path.empty() ? root : yaml::lookup(root, pool.path);
      findings::Finding f =
          finding(problem.rule, std::move(problem.message), file, document, at, resource(pool));
      f.fixable = !problem.add.empty() && fixable;
      if (!pool.path.empty()) f.field_path = pool.path / "taints";
      out.findings.push_back(std::move(f));
    }
  }
  if (found.size() != 1 || !found[0].karpenter()) return out;
  const nodepools::Pool& pool = found[0];
  const std::vector<std::string> rpath = requirements_path(pool);
  UserPool user = user_pool(object, {taints_path(pool), rpath});
  if (!user.refused.empty()) {
    if (may_edit)
      out.findings.push_back(finding(
          "uneditable-yaml",
          "archfit leaves this pool as it is: " + user.refused + "; make the change by hand", file,
          document, root, resource(pool)));
    return out;
  }
  // What topology spreads ask of the pool: as it is (for findings), and as
  // the user wrote it (what fix adds).
  SpreadNeeds now = spread_needs(pool, pool.requirements, labels);
  SpreadNeeds needs = spread_needs(pool, requirements_of(user.lists[1].user, pool), labels);
  const bool values_fixable = editable(pool) && config.node_pools.fix;
  const std::string how =
      values_fixable ? "archfit fix adds it" : "with nodePools.fix: true archfit fix adds it";
  auto spread_finding = [&](const std::string& message, bool fixable) {
    findings::Finding f =
        finding("spread-pool-values-missing", message, file, document, root, resource(pool));
    f.fixable = fixable;
    f.field_path = yaml::key_path(rpath);
    out.findings.push_back(std::move(f));
  };
  for (const nodepools::Requirement& r : now.missing) {
    spread_finding(pool.title() + " lacks the requirement " + nodepools::describe(r) +
                       " that spread.profiles give it: its nodes never carry " + r.key +
                       ", so the profile's pods never go there; " + how,
                   values_fixable);
  }
  for (const auto& conflict : now.conflicts) {
    // archfit's own requirement from other weights is written again.
    const std::string& key = conflict.first;
    bool ours = std::any_of(needs.missing.begin(), needs.missing.end(),
                            [&key](const nodepools::Requirement& r) { return r.key == key; });
    spread_finding(pool.title() + ": " + conflict.second +
                       (ours ? "; archfit wrote it for other weights, and fix writes it again"
                             : "; archfit leaves yours, change it by hand"),
                   ours && values_fixable);
  }
  if (!may_edit || !editable(pool)) return out;
  if (task == Task::Fix) {
    // What the user's pool lacks.
    nodepools::Pool as_written = pool;
    as_written.taints = taints_of(user.lists[0].user);
    for (const nodepools::PoolProblem& problem : nodepools::lint_pool(as_written, conventions)) {
      for (const nodepools::Taint& t : problem.add)
        user.lists[0].add.push_back(taint_value(t));
    }
    for (const nodepools::Requirement& r : needs.missing)
      user.lists[1].add.push_back(requirement_value(r));
  }
  std::vector<yaml::FieldChange> changes = pool_changes(object, std::move(user));
  if (changes.empty()) return out;
  std::vector<edit::TemplateEdit> edits{edit::TemplateEdit{root, {}, &changes}};
  edit::DocumentResult r = edit::edit_document(tree, first_line, edits);
  if (!r.uneditable.empty() || !r.unverified.empty()) {
    std::string why = !r.uneditable.empty() ? r.uneditable[0].second
                                            : "the edit did not check out (" + r.unverified +
                                                  "); please report this with the document";
    out.findings.push_back(
        finding("uneditable-yaml",
                "archfit leaves this pool as it is: " + why + "; make the change by hand", file,
                document, root, resource(pool)));
    for (findings::Finding& f : out.findings)
      f.fixable = false;
    return out;
  }
  if (r.changed) out.text = std::move(r.text);
  return out;
}

void give_spread_values(std::vector<nodepools::Pool>& all, const nodepools::SpreadLabels& labels) {
  if (labels.empty()) return;
  for (nodepools::Pool& p : all) {
    if (!p.karpenter()) continue;
    for (nodepools::Requirement& r : spread_needs(p, p.requirements, labels).missing)
      p.requirements.push_back(std::move(r));
  }
}

std::optional<findings::Finding> check_feasibility(const PlannedTemplate& t,
                                                   const nodepools::PoolSet& pools,
                                                   WorkBudget& budget, bool* unchecked,
                                                   bool comparison_operators) {
  if (pools.empty()) return std::nullopt;
  const Value* spec = t.plan.desired.find("spec");
  nodepools::PodNeeds needs = nodepools::needs_of(spec != nullptr ? *spec : Value::mapping());
  needs.comparison_operators = comparison_operators;
  if (!t.plan.platforms.empty()) {
    std::set<std::string> archs;
    std::set<std::string> oses;
    for (const image::Platform& p : t.plan.platforms) {
      archs.insert(p.architecture);
      oses.insert(p.os);
    }
    needs.archs = std::move(archs);
    needs.oses = std::move(oses);
  }
  nodepools::PoolSet::Answer answer = pools.check(needs, budget);
  const manifest::Workload& w = *t.where.workload;
  findings::Finding f;
  if (!answer.checked) {
    if (unchecked != nullptr) *unchecked = true;
    f = finding("pools-not-checked",
                "archfit did not check the pods of " + w.kind + " \"" + w.name +
                    "\", nor the templates after it, against the " + std::to_string(pools.size()) +
                    " node pools: checking them would take more "
                    "than the " +
                    std::to_string(budget.total()) +
                    " steps a run of this size may take (docs/node-pools.md, \"Many pools\")",
                t.where.file, t.where.document, t.where.pod_template->node,
                {w.api_version, w.kind, w.name, w.namespace_name});
  } else if (answer.fits && !answer.by_name.empty()) {
    f = finding("pool-fit-needs-node-names",
                "the pods of " + w.kind + " \"" + w.name + "\" fit " + answer.by_name +
                    " only on nodes of the names they require (matchFields on metadata.name, or "
                    "kubernetes.io/hostname In): archfit cannot know a pool's node names "
                    "offline, so whether such a node exists is for the cluster to say",
                t.where.file, t.where.document, t.where.pod_template->node,
                {w.api_version, w.kind, w.name, w.namespace_name});
  } else if (answer.fits) {
    return std::nullopt;
  } else {
    f = finding(
        "no-feasible-pool",
        "no node pool can run the pods of " + w.kind + " \"" + w.name + "\": " + answer.reasons,
        t.where.file, t.where.document, t.where.pod_template->node,
        {w.api_version, w.kind, w.name, w.namespace_name});
  }
  f.field_path = t.path / "spec";
  return f;
}

}  // namespace archfit::nodepools
