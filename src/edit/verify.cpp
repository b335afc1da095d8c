#include <algorithm>
#include <charconv>
#include <optional>
#include <span>

#include <archfit/base/error.hpp>
#include <archfit/edit/verify.hpp>
#include <archfit/yaml/path.hpp>

namespace archfit::edit {

using yaml::Kind;
using yaml::NodeRef;
using yaml::Value;

namespace {

using yaml::PathStep;

// `keys` applied at `v`, as apply_change does from a pod template.
void apply_keys(Value& v, std::span<const std::string> keys, const yaml::FieldChange& change) {
  Value* at = &v;
  for (std::size_t i = 0; i + 1 < keys.size(); ++i) {
    if (!at->is_mapping()) *at = Value::mapping();
    Value* next = at->find(keys[i]);
    if (next == nullptr) {
      if (change.remove) return;
      next = &at->set(keys[i], Value::mapping());
    }
    at = next;
  }
  if (change.remove) {
    at->erase(keys.back());
  } else {
    if (!at->is_mapping()) *at = Value::mapping();
    at->set(keys.back(), change.value);
  }
}

// Same kind, style, tag and value all the way down: the same data. Aliases are
// not followed (what they point at may have changed), so they prove nothing.
bool same(NodeRef a, NodeRef b) {
  if (!a || !b) return !a && !b;
  const yaml::Node& x = a.node();
  const yaml::Node& y = b.node();
  if (x.kind != y.kind || x.kind == Kind::Alias || x.child_count != y.child_count) return false;
  // A collection whose bytes are unchanged and that starts at the same column
  // reads the same: the lines after its first keep their indentation, a flow
  // collection delimits itself, and without an alias (no '*' at all) nothing
  // in it refers to the rest of the document.
  if (x.kind != Kind::Scalar && x.column == y.column) {
    std::string_view text = a.text();
    if (text == b.text() && text.find('*') == std::string_view::npos) return true;
  }
  if (x.kind == Kind::Scalar) {
    return x.style == y.style && a.scalar() == b.scalar() && a.tag() == b.tag();
  }
  if (a.tag() != b.tag()) return false;
  const yaml::Tree& ta = *a.tree();
  const yaml::Tree& tb = *b.tree();
  for (std::uint32_t i = 0; i < x.child_count; ++i) {
    if (!same(NodeRef(&ta, ta.child(x.first_child + i)),
              NodeRef(&tb, tb.child(y.first_child + i)))) {
      return false;
    }
  }
  return true;
}

// A change still to be met below the node being walked: first the rest of
// its template's path, then the rest of its own.
struct Pending {
  std::span<const PathStep> path;
  std::span<const std::string> keys;
  const yaml::FieldChange* change;
};

// A mapping's entries by key: in document order when there are few (looked
// up by a scan), sorted by key when there are more than kScanned.
using Keyed = std::vector<std::pair<std::string_view, NodeRef>>;
constexpr std::size_t kScanned = 16;

// Keys of a mapping on the way to a change, by their string value. Nothing is
// proved (nullopt) for keys that are not plain strings, merge keys (an
// explicit key can hide a merged one) or duplicates.
std::optional<Keyed> keyed(NodeRef m) {
  Keyed out;
  out.reserve(m.size());
  for (std::size_t i = 0; i < m.size(); ++i) {
    NodeRef k = m.key(i);
    if (!k.is_scalar() || !k.is_string() || !k.tag().empty()) return std::nullopt;
    if (k.style() == yaml::Style::Plain && k.scalar() == "<<") return std::nullopt;
    out.emplace_back(k.scalar(), m.value(i));
  }
  auto same_key = [](const auto& x, const auto& y) { return x.first == y.first; };
  if (out.size() <= kScanned) {
    for (auto it = out.begin(); it != out.end(); ++it) {
      if (std::any_of(out.begin(), it, [&](const auto& e) { return same_key(e, *it); })) {
        return std::nullopt;
      }
    }
    return out;
  }
  std::sort(out.begin(), out.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  if (std::adjacent_find(out.begin(), out.end(), same_key) != out.end()) return std::nullopt;
  return out;
}

// The value under `key`; null when absent.
NodeRef lookup(const Keyed& entries, std::string_view key) {
  if (entries.size() <= kScanned) {
    auto it = std::find_if(entries.begin(), entries.end(),
                           [key](const auto& e) { return e.first == key; });
    return it != entries.end() ? it->second : NodeRef();
  }
  auto it = std::lower_bound(entries.begin(), entries.end(), key,
                             [](const auto& e, std::string_view k) { return e.first < k; });
  return it != entries.end() && it->first == key ? it->second : NodeRef();
}

bool walk(NodeRef original, NodeRef edited, std::span<const Pending> pending);

// The changes under one key, met by comparing that key's value as data.
bool by_data(std::string_view key, NodeRef original, NodeRef edited,
             std::span<const Pending> group) {
  if (group.size() == 1 && group.front().keys.size() == 1) {
    // The usual case, one field set or taken out: no copies.
    const yaml::FieldChange& change = *group.front().change;
    if (change.remove) return !edited;
    return edited && yaml::equals(edited, change.value);
  }
  Value holder = Value::mapping();
  if (original) holder.set(std::string(key), yaml::to_value(original));
  for (const Pending& p : group)
    apply_keys(holder, p.keys, *p.change);
  const Value* expected = holder.find(key);
  if (expected == nullptr) return !edited;
  return edited && yaml::equals(edited, *expected);
}

bool walk_sequence(NodeRef original, NodeRef edited, std::span<const Pending> pending) {
  if (!original.is_sequence() || !edited.is_sequence() || original.size() != edited.size()) {
    return false;
  }
  for (const Pending& p : pending) {
    if (p.path.empty() || !p.path.front().is_index || p.path.front().index >= original.size()) {
      return false;
    }
  }
  for (std::size_t i = 0; i < original.size(); ++i) {
    std::vector<Pending> below;
    for (const Pending& p : pending) {
      if (p.path.front().index == i) below.push_back(Pending{p.path.subspan(1), p.keys, p.change});
    }
    bool ok = below.empty() ? same(original.item(i), edited.item(i))
                            : walk(original.item(i), edited.item(i), below);
    if (!ok) return false;
  }
  return true;
}

bool walk_mapping(NodeRef original, NodeRef edited, std::span<const Pending> pending) {
  if (!original.is_mapping() || !edited.is_mapping()) return false;
  auto before = keyed(original);
  auto after = keyed(edited);
  if (!before || !after) return false;

  // The changes by the key they go through next, in their order: still on
  // their template's path, or on their own.
  struct Group {
    std::string_view key;
    std::vector<Pending> on_path;
    std::vector<Pending> own;
  };
  std::vector<Group> groups;
  auto group_of = [&groups](std::string_view key) -> Group& {
    for (Group& g : groups) {
      if (g.key == key) return g;
    }
    return groups.emplace_back(Group{key, {}, {}});
  };
  for (const Pending& p : pending) {
    if (!p.path.empty()) {
      if (p.path.front().is_index) return false;
      group_of(p.path.front().key).on_path.push_back(Pending{p.path.subspan(1), p.keys, p.change});
    } else {
      group_of(p.keys.front()).own.push_back(p);
    }
  }
  auto changed = [&groups](std::string_view key) {
    return std::any_of(groups.begin(), groups.end(),
                       [key](const Group& g) { return g.key == key; });
  };

  for (const auto& [key, value] : *before) {
    if (!changed(key) && !lookup(*after, key)) return false;
  }
  for (const auto& [key, value] : *after) {
    if (changed(key)) continue;
    NodeRef was = lookup(*before, key);
    if (!was || !same(was, value)) return false;
  }
  for (const Group& group : groups) {
    NodeRef old_value = lookup(*before, group.key);
    NodeRef new_value = lookup(*after, group.key);
    if (!group.on_path.empty()) {
      // The template must be there on both sides, and nothing else changed.
      if (!group.own.empty() || !walk(old_value, new_value, group.on_path)) return false;
      continue;
    }
    // Walk on while every change goes deeper into mappings that are there on
    // both sides; else compare this key's value as data.
    bool deeper = old_value.is_mapping() && new_value.is_mapping();
    for (const Pending& p : group.own)
      deeper = deeper && p.keys.size() > 1;
    if (deeper) {
      std::vector<Pending> below;
      for (const Pending& p : group.own)
        below.push_back(Pending{{}, p.keys.subspan(1), p.change});
      if (!walk(old_value, new_value, below)) return false;
    } else if (!by_data(group.key, old_value, new_value, group.own)) {
      return false;
    }
  }
  return true;
}

bool walk(NodeRef original, NodeRef edited, std::span<const Pending> pending) {
  if (pending.empty()) return same(original, edited);
  if (!original || !edited || original.is_alias() || edited.is_alias()) return false;
  bool index = !pending.front().path.empty() && pending.front().path.front().is_index;
  return index ? walk_sequence(original, edited, pending) : walk_mapping(original, edited, pending);
}

}  // namespace

void apply_change(Value& pod_template, const yaml::FieldChange& change) {
  if (!change.path.empty()) apply_keys(pod_template, change.path, change);
}

Value intended_value(NodeRef original, const std::vector<AppliedChanges>& applied) {
  Value expected = yaml::to_value(original);
  for (const AppliedChanges& a : applied) {
    Value* target = yaml::lookup(expected, yaml::Path(a.path.begin(), a.path.end()));
    if (target == nullptr) {
      fail(ErrorKind::Internal,
           "no pod template at " + yaml::field_text(yaml::Path(a.path.begin(), a.path.end())));
    }
    for (const yaml::FieldChange& change : *a.changes)
      apply_change(*target, change);
  }
  return expected;
}

bool walk_proves(NodeRef original, NodeRef edited, const std::vector<AppliedChanges>& applied) {
  std::vector<Pending> pending;
  for (const AppliedChanges& a : applied) {
    for (const yaml::FieldChange& change : *a.changes) {
      if (change.path.empty()) return false;
      pending.push_back(Pending{a.path, change.path, &change});
    }
  }
  return walk(original, edited, pending);
}

bool means_as_intended(NodeRef original, NodeRef edited,
                       const std::vector<AppliedChanges>& applied) {
  return walk_proves(original, edited, applied) ||
         yaml::to_value(edited) == intended_value(original, applied);
}

}  // namespace archfit::edit
