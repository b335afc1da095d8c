// Finding the workloads of one parsed document.
#pragma once

#include <vector>

#include <archfit/manifest/kinds.hpp>
#include <archfit/manifest/workload.hpp>
#include <archfit/yaml/node.hpp>

namespace archfit::manifest {

// The workloads in a document, in document order: the object itself, or the
// items of a `kind: List` (or any kind ending in "List"). Documents that are
// not mappings, have no kind, or are CustomResourceDefinitions give none, and
// so do objects whose kind runs pods but which hold no pod template.
std::vector<Workload> discover(const yaml::Tree& tree, const KindTable& kinds);

// The document is a Kubernetes object: a mapping with a string apiVersion and
// kind (a values.yaml or a CI configuration is not).
bool is_object(const yaml::Tree& tree);

}  // namespace archfit::manifest
