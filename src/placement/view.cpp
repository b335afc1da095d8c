#include "placement/view.hpp"

#include <algorithm>

#include <archfit/base/error.hpp>
#include <archfit/placement/config.hpp>

namespace archfit::placement::detail {

using yaml::NodeRef;
using yaml::Value;

namespace {

bool is_empty_collection(const Value* v) {
  return v != nullptr &&
         ((v->is_mapping() && v->entries().empty()) || (v->is_sequence() && v->items().empty()));
}

Path parent_of(const Path& p) {
  return Path(p.begin(), p.end() - 1);
}

bool erase(Value& view, const Path& path) {
  Value* parent = yaml::lookup(view, parent_of(path));
  if (parent == nullptr) return false;
  const PathStep& last = path.back();
  if (last.is_index) {
    if (!parent->is_sequence() || last.index >= parent->items().size()) return false;
    parent->items().erase(parent->items().begin() + static_cast<std::ptrdiff_t>(last.index));
    return true;
  }
  return parent->erase(last.key);
}

// A value archfit wrote, found where the record says or, in a list, moved
// to another place (a tool put items before it); erased if unchanged.
bool erase_written(Value& view, const OwnedEntry& e) {
  Value* at = yaml::lookup(view, e.path);
  if (at != nullptr && data_hash(*at) == e.hash) return erase(view, e.path);
  if (!e.path.back().is_index) return false;
  Value* parent = yaml::lookup(view, parent_of(e.path));
  if (parent == nullptr || !parent->is_sequence()) return false;
  auto& items = parent->items();
  for (std::size_t i = items.size(); i-- > 0;) {
    if (data_hash(items[i]) == e.hash) {
      items.erase(items.begin() + static_cast<std::ptrdiff_t>(i));
      return true;
    }
  }
  return false;
}

void put_back(Value& view, const OwnedEntry& e, Undone& out) {
  Value* parent = yaml::lookup(view, parent_of(e.path));
  const PathStep& last = e.path.back();
  if (parent == nullptr) {
    out.kept.push_back("-" + format_record_path(e.path));
    return;
  }
  if (last.is_index) {
    if (!parent->is_sequence()) return;
    auto& items = parent->items();
    std::size_t at = std::min(last.index, items.size());
    items.insert(items.begin() + static_cast<std::ptrdiff_t>(at), e.value);
    return;
  }
  if (!parent->is_mapping() || parent->find(last.key) != nullptr) return;
  auto& entries = parent->entries();
  std::size_t at = std::min(e.position, entries.size());
  if (e.path.size() == 2 && e.path[0].key == "spec") {
    // The view's spec holds only archfit's fields; the place is among all of
    // the pod spec's keys.
    out.positions.emplace_back(last.key, e.position);
    at = entries.size();
  }
  entries.insert(at, {last.key, e.value});
}

}  // namespace

Value read_view(const manifest::PodTemplate& t) {
  // The view is copied a few times over while a template is planned: what it
  // may hold is bounded, so that the plan's memory is too
  // (docs/architecture.md, "Scaling").
  std::size_t values = 0;
  auto count = [&values](NodeRef node) {
    if (node)
      values += yaml::count_values(node, kMostViewValues - std::min(values, kMostViewValues));
  };
  count(yaml::lookup(t.node, "metadata"));
  for (const char* field : kSpecFields)
    count(yaml::lookup(t.spec, field));
  if (values > kMostViewValues) {
    Location where;
    where.line = t.node.line();
    where.column = t.node.column();
    fail(ErrorKind::Input,
         "the pod template's metadata, nodeSelector, affinity, tolerations and "
         "topologySpreadConstraints hold more than " +
             std::to_string(kMostViewValues) +
             " values, more than archfit plans a template with (real templates hold a few "
             "hundred)",
         where);
  }
  Value view = Value::mapping();
  if (NodeRef metadata = yaml::lookup(t.node, "metadata")) {
    view.set("metadata", yaml::to_value(metadata));
  }
  Value spec = Value::mapping();
  for (const char* field : kSpecFields) {
    if (NodeRef value = yaml::lookup(t.spec, field)) spec.set(field, yaml::to_value(value));
  }
  view.set("spec", std::move(spec));
  return view;
}

std::vector<yaml::FieldChange> changes_between(
    const Value& from, const Value& to,
    const std::vector<std::pair<std::string, std::size_t>>& positions) {
  std::vector<yaml::FieldChange> out;
  auto set = [&out](std::vector<std::string> path, const Value& value) {
    out.push_back(yaml::FieldChange{std::move(path), value, false, std::nullopt});
  };
  auto remove = [&out](std::vector<std::string> path) {
    out.push_back(yaml::FieldChange{std::move(path), Value(), true, std::nullopt});
  };
  const Value* from_meta = from.find("metadata");
  const Value* to_meta = to.find("metadata");
  if (from_meta == nullptr && to_meta != nullptr) {
    set({"metadata"}, *to_meta);
  } else if (from_meta != nullptr && to_meta == nullptr) {
    remove({"metadata"});
  } else if (from_meta != nullptr && !to_meta->is_mapping()) {
    // Back to what it was (a null archfit filled): the whole of it.
    if (!(*from_meta == *to_meta) || from_meta->null_text() != to_meta->null_text()) {
      set({"metadata"}, *to_meta);
    }
  } else if (from_meta != nullptr) {
    const Value* a = from_meta->find("annotations");
    const Value* b = to_meta->find("annotations");
    if (b != nullptr && (a == nullptr || !(*a == *b))) {
      set({"metadata", "annotations"}, *b);
    } else if (a != nullptr && b == nullptr) {
      remove({"metadata", "annotations"});
    }
  }
  const Value& from_spec = *from.find("spec");
  const Value& to_spec = *to.find("spec");
  for (const char* field : kSpecFields) {
    const Value* a = from_spec.find(field);
    const Value* b = to_spec.find(field);
    if (b != nullptr && (a == nullptr || !(*a == *b))) {
      set({"spec", field}, *b);
      for (const auto& [name, position] : positions) {
        if (name == field && a == nullptr) out.back().position = position;
      }
    } else if (a != nullptr && b == nullptr) {
      remove({"spec", field});
    }
  }
  return out;
}

Undone undo(const Value& view, const Ownership& record) {
  Undone out;
  out.view = view;
  Value& v = out.view;
  const Path annotations_path{PathStep::of("metadata"), PathStep::of("annotations")};
  if (Value* annotations = yaml::lookup(v, annotations_path);
      annotations != nullptr && annotations->is_mapping()) {
    bool legacy = annotations->find(kOwnedAnnotation) == nullptr &&
                  annotations->find(kPlatformsAnnotation) != nullptr;
    annotations->erase(kPlatformsAnnotation);
    annotations->erase(kOwnedAnnotation);
    // An earlier archfit recorded only archfit.io/platforms: what it wrote is
    // not known, except that it made the annotations (and the metadata)
    // that hold nothing else.
    if (legacy && annotations->entries().empty()) {
      Value& metadata = *yaml::lookup(v, {PathStep::of("metadata")});
      metadata.erase("annotations");
      if (metadata.entries().empty()) v.erase("metadata");
    }
  }
  auto of_kind = [&record](OwnedEntry::Kind kind) {
    std::vector<const OwnedEntry*> list;
    for (const OwnedEntry& e : record.entries) {
      if (e.kind == kind && !e.path.empty()) list.push_back(&e);
    }
    return list;
  };
  auto by_path = [](const OwnedEntry* a, const OwnedEntry* b) {
    return path_less(a->path, b->path);
  };

  // What archfit wrote, from the back, so that indices stay right.
  std::vector<const OwnedEntry*> wrote = of_kind(OwnedEntry::Kind::Wrote);
  std::sort(wrote.begin(), wrote.end(), by_path);
  for (auto it = wrote.rbegin(); it != wrote.rend(); ++it) {
    if (!erase_written(v, **it)) out.kept.push_back(format_record_path((*it)->path));
  }
  // Containers it created, deepest first, when nothing else is in them now.
  std::vector<const OwnedEntry*> created = of_kind(OwnedEntry::Kind::Created);
  std::sort(created.begin(), created.end(), by_path);
  for (auto it = created.rbegin(); it != created.rend(); ++it) {
    if (is_empty_collection(yaml::lookup(v, (*it)->path))) erase(v, (*it)->path);
  }
  // A view always has its spec (of placement fields only): a record saying
  // archfit created `spec` itself (it never does, but records are input)
  // must not take it out of the view.
  if (v.find("spec") == nullptr) v.set("spec", Value::mapping());
  // Nulls it filled, as they were written.
  for (const OwnedEntry* e : of_kind(OwnedEntry::Kind::Filled)) {
    Value* at = yaml::lookup(v, e->path);
    if (is_empty_collection(at)) *at = Value::null_written(e->written);
  }
  // What it took out, in order, so that each goes back to its place.
  std::vector<const OwnedEntry*> took = of_kind(OwnedEntry::Kind::Took);
  std::sort(took.begin(), took.end(), by_path);
  for (const OwnedEntry* e : took)
    put_back(v, *e, out);
  return out;
}

}  // namespace archfit::placement::detail
