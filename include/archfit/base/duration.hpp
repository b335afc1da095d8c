// Durations as people write them in configuration and flags: "30s", "7d",
// "1h30m". Used by the configuration (timeouts, tag TTLs) and by cache pruning.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace archfit {

inline constexpr std::chrono::seconds kLongestDuration{3650 * 86400};

// Grammar: "0", or one or more <digits><unit> with unit s (seconds), m
// (minutes), h (hours), d (days, 24h) or w (weeks, 7d): "90s", "1h30m", "2w".
// Whole numbers only (write 90m, not 1.5h); blanks around the text are ignored,
// blanks inside are not. Units may repeat and come in any order, as in Go's
// time.ParseDuration ("1m1m" is two minutes).
//
// At most kLongestDuration: ten years is "never" for a timeout, a tag's
// lifetime or a cache entry's age, and keeps every time computed from one
// (a few times it, added to any clock's now, in nanoseconds) inside the
// clock's range: a duration archfit accepts means that duration.
//
// Throws Error(ErrorKind::Config) 'invalid duration "<text>": <rule broken>'.
// Callers that know where the text came from add the location and the key.
std::chrono::seconds parse_duration(std::string_view text);
// The same without an exception; *why receives the message parse_duration would throw.
std::optional<std::chrono::seconds> try_parse_duration(std::string_view text,
                                                       std::string* why = nullptr);

// "0s", "45s", "1h30m", "7d", "8d1h": days, hours, minutes, seconds, largest
// first, zero parts left out; parse_duration(format_duration(d)) == d.
std::string format_duration(std::chrono::seconds duration);

}  // namespace archfit
