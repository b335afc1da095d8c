// The pieces of the image reference grammar, one check per piece. Each check returns the
// rule the text broke (to follow 'invalid image reference "...": ') or nothing when it is
// well formed. Private to the image module.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace archfit::image {

using Broken = std::optional<std::string>;

inline constexpr std::size_t kMaxPathLength = 255;
inline constexpr std::size_t kMaxTagLength = 128;

bool is_space(char c);
// 64 lowercase hex digits: what `docker images` shows as an image ID.
bool is_image_id(std::string_view text);

Broken check_tag(std::string_view tag);
Broken check_digest(std::string_view digest);
// host[:port] with host a DNS name, an IPv4 address or a bracketed IPv6 literal.
Broken check_registry(std::string_view registry);
// The normalized repository path, "library/" included.
Broken check_path(std::string_view path);

}  // namespace archfit::image
