// A document's data apart from what archfit may change: the independent
// reading the laws (support/laws.hpp) and the edit fuzzer (fuzz/edit.cpp)
// compare an edit with. Without GoogleTest, so that the fuzzer links it.
#pragma once

#include <string>

#include <archfit/yaml/node.hpp>
#include <archfit/yaml/value.hpp>

namespace archfit::testing {

// The document's data (duplicate keys read as written) with what archfit may
// change taken out of every pod template: affinity, nodeSelector, tolerations,
// topologySpreadConstraints and its two annotations (and metadata or annotations that hold nothing
// else, or are null).
yaml::Value without_placement(const yaml::Tree& tree);

// The value at a template or field path of plain keys and [n] indices
// ("items[1].spec.template"); nullptr when it is not there.
const yaml::Value* at_path(const yaml::Value& root, const std::string& path);
yaml::Value* at_path(yaml::Value& root, const std::string& path);

}  // namespace archfit::testing
