// A document's data apart from what archfit may change: the independent
// reading the laws (support/laws.hpp) and the edit fuzzer (fuzz/edit.cpp)
// compare an edit with. Without GoogleTest, so that the fuzzer links it.
#pragma once

#include <archfit/yaml/node.hpp>
#include <archfit/yaml/value.hpp>

namespace archfit::testing {

// The document's data (duplicate keys read as written) with what archfit may
// change taken out of every pod template: affinity, nodeSelector, tolerations,
// topologySpreadConstraints and its two annotations (and metadata or annotations that hold nothing
// else, or are null).
yaml::Value without_placement(const yaml::Tree& tree);

}  // namespace archfit::testing
