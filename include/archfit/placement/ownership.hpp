// The ownership record: what archfit changed in one pod template, kept in the
// template's annotation archfit.io/owned so that a later run can take exactly
// that out again and give the user's own constraints back.
//
// The record is a list of entries separated by ", ", each naming a place in
// the template by its path (`spec.tolerations[1]`, `metadata.annotations`,
// `spec.nodeSelector["kubernetes.io/arch"]`; `required` and `preferred` stand
// for node affinity's requiredDuringSchedulingIgnoredDuringExecution and
// preferredDuringSchedulingIgnoredDuringExecution):
//
//   +spec.tolerations          a mapping or list archfit created; it goes
//                              when it is empty again
//   spec.tolerations[1]#5f0e21c3
//                              a value archfit wrote, with a hash of its
//                              data; it goes if it still holds that data
//   -spec.nodeSelector["kubernetes.io/arch"]@0="amd64"
//                              a value of the user's that archfit took out
//                              (placement.respectExisting: false), as JSON,
//                              with its position among its mapping's keys;
//                              it comes back there
//   spec.affinity=~            a null of the user's (`~`, `null`, or nothing
//                              after `=` for an empty value) that archfit
//                              filled in; it comes back as written
//
// Everything the record does not name is the user's and is never taken out.
// A value archfit wrote that was changed since (its hash no longer matches)
// is the user's from then on.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <archfit/yaml/path.hpp>
#include <archfit/yaml/value.hpp>

namespace archfit::placement {

// The annotation that holds the record.
inline constexpr const char* kOwnedAnnotation = "archfit.io/owned";

// Paths in a pod template (yaml/path.hpp).
using yaml::Path;
using yaml::PathStep;

// The order of the record: step by step, indexes before keys, a path before
// the paths below it.
bool path_less(const Path& a, const Path& b);

// As the record writes it, with node affinity's short names:
// "spec.affinity.nodeAffinity.required.nodeSelectorTerms[0]".
std::string format_record_path(const Path& path);

struct OwnedEntry {
  enum class Kind { Created, Wrote, Took, Filled };
  Kind kind = Kind::Wrote;
  Path path;
  std::uint32_t hash = 0;    // Wrote: of the value archfit wrote
  std::size_t position = 0;  // Took, of a mapping key: its place among the keys
  yaml::Value value;         // Took: the user's value
  std::string written;       // Filled: how the user wrote the null
};

struct Ownership {
  std::vector<OwnedEntry> entries;

  bool empty() const { return entries.empty(); }
  // The annotation's text.
  std::string str() const;
  // Reads the annotation's text; nullopt, with why, when it is not a record.
  static std::optional<Ownership> parse(std::string_view text, std::string* why);
};

// The hash a Wrote entry keeps of a value: of its data (keys in sorted order,
// so that tools that reorder keys do not change it), not of its text.
std::uint32_t data_hash(const yaml::Value& value);

}  // namespace archfit::placement
