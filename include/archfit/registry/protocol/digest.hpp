// Content digests ("sha256:<hex>"): computing them over bodies and checking a
// body fetched by digest really is that content.
#pragma once

#include <string>
#include <string_view>

namespace archfit::registry {

// "sha256:" + 64 lowercase hex digits.
std::string sha256_digest(std::string_view data);

// True for "sha256:" + 64 or "sha512:" + 128 lowercase hex digits: a digest
// archfit can check, and safe to put into a URL.
bool is_checkable_digest(std::string_view digest);

// True when `digest` (sha256 or sha512) names `data`. Throws Error(Resolution)
// for another algorithm.
bool digest_matches(std::string_view digest, std::string_view data);

}  // namespace archfit::registry
