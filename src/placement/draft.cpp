#include "placement/draft.hpp"

#include <algorithm>

#include "placement/view.hpp"

namespace archfit::placement::detail {

using yaml::Value;

namespace {

// Containers the user may well add to after archfit created them (another
// toleration, a podAntiAffinity, a preferred term): they are listed as
// created, and what archfit put in them one by one. Anything else archfit
// creates is its own whole.
bool is_shared(const Path& p) {
  auto is = [&p](std::initializer_list<const char*> keys) {
    if (p.size() != keys.size()) return false;
    std::size_t i = 0;
    for (const char* k : keys) {
      if (p[i].is_index || p[i].key != k) return false;
      ++i;
    }
    return true;
  };
  return is({"metadata"}) || is({"metadata", "annotations"}) || is({"spec", "nodeSelector"}) ||
         is({"spec", "tolerations"}) || is({"spec", "topologySpreadConstraints"}) ||
         is({"spec", "affinity"}) || is({"spec", "affinity", "nodeAffinity"}) ||
         is({"spec", "affinity", "nodeAffinity", kPreferredKey});
}

}  // namespace

bool Draft::inside_root(const Path& path) const {
  if (roots_.empty()) return false;
  Path prefix;
  prefix.reserve(path.size());
  for (const PathStep& step : path) {
    prefix.push_back(step);
    if (roots_.contains(prefix)) return true;
  }
  return false;
}

void Draft::note_new(const Path& path) {
  if (inside_root(path)) return;
  if (is_shared(path)) {
    created_.push_back(path);
  } else {
    roots_.insert(path);
  }
}

Value& Draft::make(const Path& path, bool list) {
  Value* v = &view_;
  // The path up to step i, built only when something is recorded there.
  auto prefix = [&path](std::size_t i) { return Path(path.begin(), path.begin() + i + 1); };
  for (std::size_t i = 0; i < path.size(); ++i) {
    const PathStep& step = path[i];
    if (step.is_index) {
      v = &v->items()[step.index];
      continue;
    }
    bool last = i + 1 == path.size();
    Value* child = v->find(step.key);
    if (child == nullptr) {
      child = &v->set(step.key, last && list ? Value::sequence() : Value::mapping());
      note_new(prefix(i));
    } else if (child->is_null() && !inside_root(prefix(i))) {
      OwnedEntry filled;
      filled.kind = OwnedEntry::Kind::Filled;
      filled.path = prefix(i);
      filled.written = child->null_text().value_or("null");
      record_.entries.push_back(std::move(filled));
      // What goes into it is listed like what goes into a container
      // archfit created.
      *child = last && list ? Value::sequence() : Value::mapping();
    }
    v = child;
  }
  return *v;
}

void Draft::append(const Path& list, Value item) {
  Value& seq = make(list, true);
  Path item_path = list;
  item_path.push_back(PathStep::at(seq.items().size()));
  seq.items().push_back(std::move(item));
  note_new(item_path);
}

void Draft::add_key(const Path& mapping, const std::string& key, Value value) {
  Value& m = make(mapping, false);
  m.set(key, std::move(value));
  Path key_path = mapping;
  key_path.push_back(PathStep::of(key));
  note_new(key_path);
}

void Draft::add_annotation(const std::string& key, Value value) {
  make({PathStep::of("metadata"), PathStep::of("annotations")}, false).set(key, std::move(value));
}

void Draft::take(const Path& path, std::size_t position) {
  Value* v = yaml::lookup(view_, path);
  if (v == nullptr) return;
  OwnedEntry took;
  took.kind = OwnedEntry::Kind::Took;
  took.path = path;
  took.position = position;
  took.value = *v;
  record_.entries.push_back(std::move(took));
  Value* parent = yaml::lookup(view_, Path(path.begin(), path.end() - 1));
  if (path.back().is_index) {
    parent->items().erase(parent->items().begin() + static_cast<std::ptrdiff_t>(path.back().index));
  } else {
    parent->erase(path.back().key);
  }
}

Ownership Draft::ownership() const {
  Ownership out = record_;
  for (const Path& p : created_) {
    OwnedEntry e;
    e.kind = OwnedEntry::Kind::Created;
    e.path = p;
    out.entries.push_back(std::move(e));
  }
  for (const Path& p : roots_) {
    const Value* v = yaml::lookup(view_, p);
    if (v == nullptr) continue;
    OwnedEntry e;
    e.kind = OwnedEntry::Kind::Wrote;
    e.path = p;
    e.hash = data_hash(*v);
    out.entries.push_back(std::move(e));
  }
  std::stable_sort(
      out.entries.begin(), out.entries.end(),
      [](const OwnedEntry& a, const OwnedEntry& b) { return path_less(a.path, b.path); });
  return out;
}

}  // namespace archfit::placement::detail
