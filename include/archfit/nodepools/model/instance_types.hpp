// The CPU architecture of a cloud instance type, for node groups that name
// their instance types rather than an architecture.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace archfit::nodepools {

// "arm64" for AWS Graviton types (m7g.large, c6gn.xlarge, t4g.micro, a1.*,
// mac2*), "amd64" for the other AWS families archfit knows (m5.large,
// c7i.2xlarge, g4dn.xlarge ...), nullopt for anything else.
std::optional<std::string> aws_instance_arch(std::string_view type);

}  // namespace archfit::nodepools
