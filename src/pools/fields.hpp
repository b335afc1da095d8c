// Refusing a field of a pool or PodDistributor object (read.cpp,
// spread.cpp): the input error placed at its node. Fields are read with
// yaml::lookup_path and yaml::scalar_text.
#pragma once

#include <string>
#include <string_view>

#include <archfit/base/error.hpp>
#include <archfit/yaml/node.hpp>

namespace archfit::pools::detail {

// Error(Input) at the node's line and column (the caller's file is added by
// whoever reads the stream).
[[noreturn]] inline void refuse(yaml::NodeRef at, const std::string& message) {
  fail(ErrorKind::Input, message, Location{"", at.line(), at.column()});
}

}  // namespace archfit::pools::detail
