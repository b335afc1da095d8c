// SHA-256 for cache file names: a tag entry is stored under the hash of its
// canonical reference, so any reference maps to one short, safe file name.
#pragma once

#include <string>
#include <string_view>

namespace archfit::cache {

// 64 lowercase hex digits.
std::string sha256_hex(std::string_view data);

}  // namespace archfit::cache
