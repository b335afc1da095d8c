// The view archfit wants a pod template to have, built from the user's view
// by a few operations, each of which notes in the ownership record what it
// changed. The record is therefore right by construction: it names exactly
// what the operations added, filled in or took out, and nothing of the
// user's.
#pragma once

#include <set>
#include <string>
#include <vector>

#include <archfit/placement/ownership.hpp>
#include <archfit/yaml/value.hpp>

namespace archfit::placement::detail {

class Draft {
 public:
  explicit Draft(yaml::Value user_view) : view_(std::move(user_view)) {}

  const yaml::Value& view() const { return view_; }
  // The view, once the draft is done with.
  yaml::Value release() && { return std::move(view_); }
  // Whether the record takes out or fills in values of the user's.
  bool gives_back() const { return !record_.entries.empty(); }
  // Whether any operation changed the view.
  bool changed() const { return !created_.empty() || !roots_.empty() || !record_.entries.empty(); }

  // Appends `item` to the list at `list`, creating it and the mappings on
  // the way when they are missing (or null).
  void append(const Path& list, yaml::Value item);
  // Adds `key` to the mapping at `mapping`, creating it likewise.
  void add_key(const Path& mapping, const std::string& key, yaml::Value value);
  // Adds one of archfit's own annotations, making the template's metadata and
  // annotations when missing. The key is not listed in the record: archfit's
  // annotations are always its own.
  void add_annotation(const std::string& key, yaml::Value value);
  // Takes out a value of the user's. `position`: for a mapping key, its place
  // among its mapping's keys (for a spec field, among the pod spec's).
  void take(const Path& path, std::size_t position = 0);

  // The record of everything done so far.
  Ownership ownership() const;

 private:
  // The container at `path`, made when missing or null.
  yaml::Value& make(const Path& path, bool list);
  bool inside_root(const Path& path) const;
  void note_new(const Path& path);

  yaml::Value view_;
  std::vector<Path> created_;  // shared containers made: listed with '+'
  // Values written whole, listed with their hash; a set, so that a template
  // given thousands of them (one per nodeSelectorTerm) finds whether a path
  // lies inside one by its prefixes, not by a scan.
  struct PathLess {
    bool operator()(const Path& a, const Path& b) const { return path_less(a, b); }
  };
  std::set<Path, PathLess> roots_;
  Ownership record_;  // what was taken out or filled in
};

}  // namespace archfit::placement::detail
