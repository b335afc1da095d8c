// Paths into a document, one type from discovery and placement to every
// report: a finding's field (spec.template.spec.affinity), a workload inside a
// List (items[3]), a container by its name (spec.containers[name=web]), a step
// of archfit's ownership record (`labels["app.kubernetes.io/name"]`). Each
// report spells a path its own way (field_text, the KRM results' kyaml
// spelling); the ownership record is read and written in this syntax:
//
//   path  := step ('.' key | '[' index ']' | '[' quoted ']')*
//   step  := key | '[' index ']' | '[' quoted ']'
//   key   := letters, digits, '_' and '-'
//   quoted:= a JSON string: any key, dots and brackets included
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <archfit/yaml/node.hpp>
#include <archfit/yaml/value.hpp>

namespace archfit::yaml {

// One step of a path: a mapping key, a sequence index, or the item of a
// sequence whose `name` is `key` (containers, as Kubernetes merges them).
struct PathStep {
  std::string key;
  std::size_t index = 0;
  bool is_index = false;
  bool by_name = false;

  static PathStep of(std::string key) { return PathStep{std::move(key), 0, false, false}; }
  static PathStep at(std::size_t index) { return PathStep{{}, index, true, false}; }
  static PathStep named(std::string name) { return PathStep{std::move(name), 0, false, true}; }
  friend bool operator==(const PathStep&, const PathStep&) = default;
};
using Path = std::vector<PathStep>;

// A path one step longer: `path / "key"`, `path / PathStep::at(2)`.
Path operator/(Path path, std::string_view key);
Path operator/(Path path, PathStep step);
// Two paths one after the other.
Path operator+(Path first, const Path& second);

// A path as reports show a field: keys after dots as they are written
// ("metadata.annotations.archfit.io/platforms"), [3] for an index, ["web"]
// for the item named web.
std::string field_text(const Path& path);

// Reads the path that starts `text` into `out`: the bytes read, or 0 with
// `*why` saying what was expected and `*stopped` (when given) where. Indexes
// have at most nine digits.
std::size_t read_path(std::string_view text, Path& out, std::string* why,
                      std::size_t* stopped = nullptr);

// All of `text` as a path ("" is the root, no step); throws Error(Input)
// quoting it otherwise.
Path parse_path(std::string_view text);

// A path as read_path reads it: keys that are not plain written quoted in
// brackets. `name`, when given, spells a key step otherwise (the ownership
// record's short names); it is called for plain keys only.
using StepName = std::string_view (*)(const Path& path, std::size_t step);
std::string format_path(const Path& path, StepName name = nullptr);
// format_path's text appended to `out`.
void append_path(std::string& out, const Path& path, StepName name = nullptr);

// The keys as a path.
Path key_path(const std::vector<std::string>& keys);

// What `path` reaches below `node`, as Kubernetes reads it (lookup() in
// mappings, aliases followed, an item by name the first whose `name` is the
// step's); null when a step is missing or does not fit.
NodeRef lookup(NodeRef node, const Path& path);
// The same in a Value.
const Value* lookup(const Value& value, const Path& path);
Value* lookup(Value& value, const Path& path);

}  // namespace archfit::yaml
