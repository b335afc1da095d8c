// The JSON of one cache entry, version 1. Written compact, in a fixed key
// order, with a final newline; times are whole seconds since the Unix epoch
// (UTC), which need no parsing of time zones and compare as numbers:
//   {"version":1,"kind":"digest","digest":"sha256:<hex>","mediaType":"...",
//    "platforms":["linux/amd64","linux/arm64"],"written":1718000000}
//   {"version":1,"kind":"tag","reference":"docker.io/library/nginx:1.25",
//    "digest":"sha256:<hex>","fetched":1718000000}
// Decoding is strict about what archfit relies on and returns nullopt for
// anything else; keys it does not know are ignored.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <archfit/cache/store.hpp>

namespace archfit::cache {

// "sha256:" followed by 64 lowercase hex digits.
bool is_sha256_digest(std::string_view digest);

std::string encode_digest_entry(const DigestEntry& entry);
std::string encode_tag_entry(const TagEntry& entry);

// Either kind of entry, for list(); the other member is empty.
struct DecodedEntry {
  std::optional<DigestEntry> digest;
  std::optional<TagEntry> tag;
};
DecodedEntry decode_entry(std::string_view text);

// Time points as stored: whole seconds, rounded down.
TimePoint to_stored_time(TimePoint t);

}  // namespace archfit::cache
