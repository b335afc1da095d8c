// Reading the fields of pool and PodDistributor objects (read.cpp,
// spread.cpp): a field as Kubernetes reads it, a scalar's text, and the
// input error placed at a node.
#pragma once

#include <string>
#include <string_view>

#include <archfit/base/error.hpp>
#include <archfit/yaml/node.hpp>

namespace archfit::pools::detail {

inline yaml::NodeRef field(yaml::NodeRef mapping, std::string_view key) {
  return yaml::lookup_path(mapping, {key});
}

// A scalar's text; "" for anything else.
inline std::string scalar_text(yaml::NodeRef node) {
  return node.is_scalar() ? std::string(node.scalar()) : "";
}

// Error(Input) at the node's line and column (the caller's file is added by
// whoever reads the stream).
[[noreturn]] inline void refuse(yaml::NodeRef at, const std::string& message) {
  fail(ErrorKind::Input, message, Location{"", at.line(), at.column()});
}

}  // namespace archfit::pools::detail
