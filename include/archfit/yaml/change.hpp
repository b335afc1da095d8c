// One planned change of a document, as data: the field at `path` below some
// mapping (a pod template) becomes `value`, or goes. Planners produce them,
// the editor turns them into text, verification checks the result.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <archfit/yaml/value.hpp>

namespace archfit::yaml {

struct FieldChange {
  // The keys from the mapping down (a path of keys only: yaml::key_path
  // gives its yaml::Path), e.g. {"spec", "affinity"}.
  std::vector<std::string> path;
  Value value;
  bool remove = false;  // take the key out (value is ignored)
  // For a key that is not there yet: its place among its mapping's keys
  // (where a key taken out earlier goes back); at the end when not given.
  std::optional<std::size_t> position;
};

}  // namespace archfit::yaml
