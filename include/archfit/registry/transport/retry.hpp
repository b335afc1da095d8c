// When to try a request again: on 429, 5xx, timeouts, refused connections and
// bodies cut short, a bounded number of times, waiting as the registry asks
// (Retry-After, in seconds or as an HTTP date) or else exponentially longer
// with jitter so that many clients do not come back in step.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string_view>

#include <archfit/registry/transport/http.hpp>

namespace archfit::registry {

struct RetryPolicy {
  int attempts = 4;  // tries in all, the first included
  std::chrono::milliseconds base_delay{200};
  std::chrono::milliseconds max_delay{10000};  // a longer Retry-After gives up instead
};

// Sleeps; a seam so that tests need not wait.
using Sleeper = std::function<void(std::chrono::milliseconds)>;
Sleeper real_sleeper();

bool is_retryable(const HttpResponse& response);

// Retry-After as a delay; nullopt when absent or unreadable. `now` is the
// wall clock, for the HTTP-date form.
std::optional<std::chrono::milliseconds> parse_retry_after(
    std::string_view value, std::chrono::system_clock::time_point now);

// The delay before retry number `retry` (1 = the second try): Retry-After
// when given, else base * 2^(retry-1), plus or minus up to half of it.
std::chrono::milliseconds retry_delay(const RetryPolicy& policy, int retry,
                                      std::optional<std::chrono::milliseconds> retry_after);

}  // namespace archfit::registry
