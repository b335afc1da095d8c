// What archfit reads and writes of a pod template, as data: the template's
// whole `metadata` (when it has one) and, under `spec`, only the pod spec's
// nodeSelector, affinity, tolerations and topologySpreadConstraints (those
// it has). Ownership record paths are paths in this view. Fields are read as
// Kubernetes reads them: through aliases and merge keys.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <archfit/manifest/workload.hpp>
#include <archfit/placement/ownership.hpp>
#include <archfit/yaml/change.hpp>
#include <archfit/yaml/value.hpp>

namespace archfit::placement::detail {

inline constexpr const char* kRequiredKey = "requiredDuringSchedulingIgnoredDuringExecution";
inline constexpr const char* kPreferredKey = "preferredDuringSchedulingIgnoredDuringExecution";
// The pod spec fields archfit manages, in the order it writes them.
inline constexpr const char* kSpecFields[] = {"nodeSelector", "affinity", "tolerations",
                                              "topologySpreadConstraints"};

// The most values (scalars and collections, aliases expanded) a view holds.
// Real templates hold a few hundred; the API server's own limits (256 KiB of
// annotations, 1.5 MiB an object) keep them far below this.
inline constexpr std::size_t kMostViewValues = 32768;

// Throws Error(Input) for a template whose view would hold more than
// kMostViewValues: the document is then left as it is (invalid-document).
yaml::Value read_view(const manifest::PodTemplate& t);

// The value at a path in a view: yaml::lookup.

// The changes that turn a template showing `from` into one showing `to`:
// one per spec field and for metadata.annotations (or the whole metadata
// when it comes or goes). A spec field that `to` gives back where it once
// was carries that place (`positions`: field name -> index among the pod
// spec's keys).
std::vector<yaml::FieldChange> changes_between(
    const yaml::Value& from, const yaml::Value& to,
    const std::vector<std::pair<std::string, std::size_t>>& positions = {});

// The user's view: `view` without what the record says archfit changed, and
// without archfit's annotations.
struct Undone {
  yaml::Value view;
  // Spec fields given back, with their place among the pod spec's keys.
  std::vector<std::pair<std::string, std::size_t>> positions;
  // Entries of archfit's that were changed by hand since, and so stay.
  std::vector<std::string> kept;
};
Undone undo(const yaml::Value& view, const Ownership& record);

}  // namespace archfit::placement::detail
