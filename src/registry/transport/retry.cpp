#include <charconv>
#include <ctime>
#include <random>
#include <string>
#include <thread>

#include <archfit/registry/transport/retry.hpp>

namespace archfit::registry {

Sleeper real_sleeper() {
  return [](std::chrono::milliseconds d) { std::this_thread::sleep_for(d); };
}

bool is_retryable(const HttpResponse& r) {
  switch (r.failure) {
    case Failure::Connect:
    case Failure::Timeout:
    case Failure::Truncated:
      return true;
    case Failure::None:
      return r.status == 429 || r.status == 500 || r.status == 502 || r.status == 503 ||
             r.status == 504;
    default:
      return false;
  }
}

std::optional<std::chrono::milliseconds> parse_retry_after(
    std::string_view value, std::chrono::system_clock::time_point now) {
  while (!value.empty() && value.front() == ' ')
    value.remove_prefix(1);
  while (!value.empty() && value.back() == ' ')
    value.remove_suffix(1);
  if (value.empty()) return std::nullopt;
  long long seconds = 0;
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), seconds);
  if (ec == std::errc() && end == value.data() + value.size()) {
    if (seconds < 0) return std::nullopt;
    return std::chrono::milliseconds(seconds * 1000);
  }
  // IMF-fixdate: "Wed, 21 Oct 2015 07:28:00 GMT"
  std::tm tm{};
  std::string text(value);
  const char* rest = strptime(text.c_str(), "%a, %d %b %Y %H:%M:%S GMT", &tm);
  if (rest == nullptr || *rest != '\0') return std::nullopt;
  auto at = std::chrono::system_clock::from_time_t(timegm(&tm));
  if (at <= now) return std::chrono::milliseconds(0);
  return std::chrono::duration_cast<std::chrono::milliseconds>(at - now);
}

std::chrono::milliseconds retry_delay(const RetryPolicy& policy, int retry,
                                      std::optional<std::chrono::milliseconds> retry_after) {
  if (retry_after) return *retry_after;
  long long base = policy.base_delay.count() << std::min(retry - 1, 16);
  base = std::min<long long>(base, policy.max_delay.count());
  thread_local std::minstd_rand random(std::random_device{}());
  std::uniform_int_distribution<long long> jitter(-base / 2, base / 2);
  return std::chrono::milliseconds(std::max<long long>(0, base + jitter(random)));
}

}  // namespace archfit::registry
