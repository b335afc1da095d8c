// Checking an edit: the edited document, parsed again, must mean the original
// data with the planned changes applied, and nothing else.
//
// Most edits are proved right by walking both trees side by side: outside the
// changed fields the nodes must be the same (kind, style, tag, value), and
// each changed field must hold its planned value. Only the changed fields are
// turned into data. What the walk cannot prove (aliases, merge keys on the
// way, nodes that differ only in style, or a real difference) is settled by
// comparing the whole documents as data, which is the definition.
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include <archfit/yaml/change.hpp>
#include <archfit/yaml/node.hpp>
#include <archfit/yaml/path.hpp>
#include <archfit/yaml/value.hpp>

namespace archfit::edit {

// Changes to the pod template at `path` from the document root
// ("items[2].spec.template"; "" for a Pod).
struct AppliedChanges {
  std::span<const yaml::PathStep> path;  // of the pod template from the document root
  const std::vector<yaml::FieldChange>* changes = nullptr;
};

// True when `edited` means `original` with every change applied, in order.
bool means_as_intended(yaml::NodeRef original, yaml::NodeRef edited,
                       const std::vector<AppliedChanges>& applied);

// The quick half on its own: true only when the walk proves it (false says
// nothing either way).
bool walk_proves(yaml::NodeRef original, yaml::NodeRef edited,
                 const std::vector<AppliedChanges>& applied);

// The slow half on its own: the data of `original` with the changes applied.
// Throws Error(Internal) when a template path leads nowhere.
yaml::Value intended_value(yaml::NodeRef original, const std::vector<AppliedChanges>& applied);

// One planned change applied to data at `pod_template`.
void apply_change(yaml::Value& pod_template, const yaml::FieldChange& change);

}  // namespace archfit::edit
