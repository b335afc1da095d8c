// Finding the workloads of one parsed document.
#pragma once

#include <string>
#include <vector>

#include <archfit/manifest/kinds.hpp>
#include <archfit/manifest/workload.hpp>
#include <archfit/yaml/node.hpp>
#include <archfit/yaml/path.hpp>

namespace archfit::manifest {

// The workloads in a document, in document order: the object itself, or the
// items of a `kind: List` (or any kind ending in "List"). Documents that are
// not mappings, have no kind, or are CustomResourceDefinitions give none, and
// so do objects whose kind runs pods but which hold no pod template.
std::vector<Workload> discover(const yaml::Tree& tree, const KindTable& kinds);

// The workloads of one item of a list, parsed as a document of its own, at
// `path` (items[3]): what discover() finds of that item in the list.
std::vector<Workload> discover_item(const yaml::Tree& item, const KindTable& kinds,
                                    yaml::Path path);

// The document is a Kubernetes object: a mapping with a string apiVersion and
// kind (a values.yaml or a CI configuration is not).
bool is_object(const yaml::Tree& tree);

}  // namespace archfit::manifest
