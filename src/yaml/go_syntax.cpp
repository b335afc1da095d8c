#include "yaml/go_syntax.hpp"

#include <array>
#include <charconv>
#include <limits>
#include <string>
#include <system_error>

namespace archfit::yaml::go {
namespace {

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

int digit_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'z') return c - 'a' + 10;
  if (c >= 'A' && c <= 'Z') return c - 'A' + 10;
  return 99;
}

// The decimal exponent of the leading significant digit of a syntactically
// valid decimal float: positive for huge values, negative for tiny ones.
long long decimal_magnitude(std::string_view s) {
  std::size_t i = 0;
  if (s[i] == '+' || s[i] == '-') ++i;
  long long int_digits = 0;
  long long first = 0;  // position of the first non-zero digit, relative to the point
  bool found = false;
  for (; i < s.size() && is_digit(s[i]); ++i) {
    if (!found && s[i] != '0') {
      found = true;
      first = int_digits;
    }
    ++int_digits;
  }
  long long magnitude = found ? int_digits - first - 1 : 0;
  if (i < s.size() && s[i] == '.') {
    for (long long k = 1; ++i < s.size() && is_digit(s[i]); ++k) {
      if (!found && s[i] != '0') {
        found = true;
        magnitude = -k;
      }
    }
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    bool negative = s[i] == '-';
    if (s[i] == '+' || s[i] == '-') ++i;
    long long exponent = 0;
    for (; i < s.size(); ++i) {
      if (exponent < 100000) exponent = exponent * 10 + (s[i] - '0');
    }
    magnitude += negative ? -exponent : exponent;
  }
  return magnitude;
}

bool one_or_two_digits(std::string_view s, std::size_t& i, int& value) {
  if (i >= s.size() || !is_digit(s[i])) return false;
  value = s[i++] - '0';
  if (i < s.size() && is_digit(s[i])) value = value * 10 + (s[i++] - '0');
  return true;
}

int days_in_month(int month, int year) {
  static constexpr std::array<int, 12> kDays = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
  return month == 2 && leap ? 29 : kDays[static_cast<std::size_t>(month - 1)];
}

}  // namespace

UintResult parse_uint(std::string_view s, int base) {
  if (s.empty()) return {};
  if (base == 0) {
    base = 10;
    if (s[0] == '0') {
      char p = s.size() >= 3 ? static_cast<char>(s[1] | 0x20) : '\0';
      if (p == 'b' || p == 'o' || p == 'x') {
        base = p == 'b' ? 2 : p == 'o' ? 8 : 16;
        s.remove_prefix(2);
      } else {
        base = 8;
        s.remove_prefix(1);
      }
    }
  }
  const std::uint64_t max = std::numeric_limits<std::uint64_t>::max();
  const std::uint64_t cutoff = max / static_cast<std::uint64_t>(base) + 1;
  std::uint64_t n = 0;
  for (char c : s) {
    int d = digit_value(c);
    if (d >= base) return {};
    if (n >= cutoff) return {Parse::Range, max};
    n *= static_cast<std::uint64_t>(base);
    std::uint64_t n1 = n + static_cast<std::uint64_t>(d);
    if (n1 < n) return {Parse::Range, max};
    n = n1;
  }
  return {Parse::Ok, n};
}

IntResult parse_int(std::string_view s, int base) {
  if (s.empty()) return {};
  bool negative = false;
  if (s[0] == '+' || s[0] == '-') {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  UintResult u = parse_uint(s, base);
  if (u.status == Parse::Syntax) return {};
  const std::uint64_t limit = std::uint64_t{1} << 63;
  if (u.status == Parse::Range || (!negative && u.value >= limit) ||
      (negative && u.value > limit)) {
    return {Parse::Range, 0};
  }
  if (negative) return {Parse::Ok, static_cast<std::int64_t>(0 - u.value)};
  return {Parse::Ok, static_cast<std::int64_t>(u.value)};
}

bool big_unsigned_syntax(std::string_view s) {
  if (s.empty()) return false;
  int base = 10;
  if (s[0] == '0') {
    char p = s.size() >= 2 ? static_cast<char>(s[1] | 0x20) : '\0';
    if (p == 'b' || p == 'o' || p == 'x') {
      base = p == 'b' ? 2 : p == 'o' ? 8 : 16;
      s.remove_prefix(2);
      if (s.empty()) return false;
    } else {
      base = 8;
      s.remove_prefix(1);
    }
  }
  for (char c : s) {
    if (digit_value(c) >= base) return false;
  }
  return true;
}

bool parse_decimal(std::string_view s, double& out) {
  std::string_view digits = s;
  if (!digits.empty() && digits[0] == '+') digits.remove_prefix(1);  // from_chars takes no '+'
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), out);
  if (ec == std::errc() && end == digits.data() + digits.size()) return true;
  if (ec != std::errc::result_out_of_range) return false;
  if (decimal_magnitude(s) > 0) return false;
  out = s[0] == '-' ? -0.0 : 0.0;
  return true;
}

bool parse_float_leading_dot(std::string_view s, double& out) {
  const std::size_t n = s.size();
  std::size_t i = 1;
  bool mantissa_digit = false;
  for (; i < n && (is_digit(s[i]) || s[i] == '_'); ++i)
    mantissa_digit |= is_digit(s[i]);
  if (!mantissa_digit) return false;
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < n && (s[i] == '+' || s[i] == '-')) ++i;
    if (i >= n || !is_digit(s[i])) return false;
    while (i < n && (is_digit(s[i]) || s[i] == '_'))
      ++i;
  }
  if (i != n) return false;
  for (std::size_t j = 0; j < n; ++j) {
    if (s[j] == '_' && (!is_digit(s[j - 1]) || j + 1 == n || !is_digit(s[j + 1]))) return false;
  }
  std::string digits;
  for (char c : s) {
    if (c != '_') digits += c;
  }
  return parse_decimal(digits, out);
}

bool is_timestamp(std::string_view s) {
  const std::size_t n = s.size();
  if (n < 5 || s[4] != '-') return false;
  int year = 0;
  for (std::size_t k = 0; k < 4; ++k) {
    if (!is_digit(s[k])) return false;
    year = year * 10 + (s[k] - '0');
  }
  std::size_t i = 5;
  int month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (!one_or_two_digits(s, i, month) || month < 1 || month > 12) return false;
  if (i >= n || s[i++] != '-') return false;
  if (!one_or_two_digits(s, i, day) || day < 1 || day > days_in_month(month, year)) return false;
  if (i == n) return true;
  bool zone = s[i] == 'T' || s[i] == 't';
  if (zone) {
    ++i;
  } else if (s[i] == ' ') {
    // A space in a Go layout matches a run of spaces.
    while (i < n && s[i] == ' ')
      ++i;
  } else {
    return false;
  }
  if (!one_or_two_digits(s, i, hour) || hour > 23) return false;
  if (i >= n || s[i++] != ':') return false;
  if (!one_or_two_digits(s, i, minute) || minute > 59) return false;
  if (i >= n || s[i++] != ':') return false;
  if (!one_or_two_digits(s, i, second) || second > 59) return false;
  if (i + 1 < n && (s[i] == '.' || s[i] == ',') && is_digit(s[i + 1])) {
    i += 2;
    while (i < n && is_digit(s[i]))
      ++i;
  }
  if (!zone) return i == n;
  if (i < n && s[i] == 'Z') return i + 1 == n;
  if (n - i != 6 || (s[i] != '+' && s[i] != '-') || s[i + 3] != ':') return false;
  for (std::size_t k : {i + 1, i + 2, i + 4, i + 5}) {
    if (!is_digit(s[k])) return false;
  }
  int zone_hours = (s[i + 1] - '0') * 10 + (s[i + 2] - '0');
  int zone_minutes = (s[i + 4] - '0') * 10 + (s[i + 5] - '0');
  return zone_hours <= 24 && zone_minutes <= 60;
}

}  // namespace archfit::yaml::go
