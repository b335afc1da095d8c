// Standard base64 (RFC 4648, with padding), as Kubernetes Secret data and
// docker config "auth" fields use it.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace archfit {

// nullopt for text that is not valid base64 (whitespace and line breaks, which
// kubectl output may carry, are skipped).
std::optional<std::string> base64_decode(std::string_view text);
std::string base64_encode(std::string_view data);

}  // namespace archfit
