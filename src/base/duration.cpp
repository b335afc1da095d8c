#include <cstdint>
#include <limits>

#include <archfit/base/duration.hpp>
#include <archfit/base/error.hpp>
#include <archfit/base/text.hpp>

namespace archfit {

namespace {

constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();

std::int64_t unit_seconds(char unit) {
  switch (unit) {
    case 's':
      return 1;
    case 'm':
      return 60;
    case 'h':
      return 3600;
    case 'd':
      return 86400;
    case 'w':
      return 7 * 86400;
    default:
      return 0;
  }
}

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

constexpr const char* kTooLong = "too large: at most 3650d (ten years)";
constexpr const char* kUnits = "use s, m, h, d or w, e.g. 30s, 1h30m, 7d";

}  // namespace

std::optional<std::chrono::seconds> try_parse_duration(std::string_view text, std::string* why) {
  auto reject = [&](const std::string& rule) -> std::optional<std::chrono::seconds> {
    if (why) *why = "invalid duration " + archfit::quoted(text) + ": " + rule;
    return std::nullopt;
  };
  std::string_view rest = trim(text);
  if (rest.empty()) return reject(std::string("empty; ") + kUnits);
  if (rest == "0") return std::chrono::seconds(0);
  if (rest.front() == '-') return reject("must not be negative");
  if (rest.front() == '+') rest.remove_prefix(1);
  std::int64_t total = 0;
  while (!rest.empty()) {
    if (!is_digit(rest.front())) {
      return reject("expected a number at " + archfit::quoted(rest) + "; " + kUnits);
    }
    std::int64_t number = 0;
    while (!rest.empty() && is_digit(rest.front())) {
      int digit = rest.front() - '0';
      if (number > (kMax - digit) / 10) return reject(kTooLong);
      number = number * 10 + digit;
      rest.remove_prefix(1);
    }
    if (rest.empty()) {
      return reject("missing unit after " + std::to_string(number) + "; " + kUnits);
    }
    if (rest.front() == '.') return reject("fractions are not supported; write 90m, not 1.5h");
    std::size_t unit_length = 0;
    while (unit_length < rest.size() && !is_digit(rest[unit_length]))
      ++unit_length;
    std::string_view unit = rest.substr(0, unit_length);
    std::int64_t factor = unit.size() == 1 ? unit_seconds(unit.front()) : 0;
    if (factor == 0) return reject("unknown unit " + archfit::quoted(unit) + "; " + kUnits);
    if (number > kMax / factor || total > kMax - number * factor) return reject(kTooLong);
    total += number * factor;
    if (total > kLongestDuration.count()) return reject(kTooLong);
    rest.remove_prefix(unit_length);
  }
  return std::chrono::seconds(total);
}

std::chrono::seconds parse_duration(std::string_view text) {
  std::string why;
  if (auto d = try_parse_duration(text, &why)) return *d;
  fail(ErrorKind::Config, why);
}

std::string format_duration(std::chrono::seconds duration) {
  std::int64_t left = duration.count();
  if (left == 0) return "0s";
  std::string out;
  if (left < 0) {
    out = "-";
    // Negative durations never come from parse_duration; written for messages only.
    left = left == std::numeric_limits<std::int64_t>::min() ? kMax : -left;
  }
  for (char unit : {'d', 'h', 'm', 's'}) {
    std::int64_t size = unit_seconds(unit);
    if (left >= size) {
      out += std::to_string(left / size);
      out += unit;
      left %= size;
    }
  }
  return out;
}

}  // namespace archfit
