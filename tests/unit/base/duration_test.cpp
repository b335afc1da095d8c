// Durations as configuration and flags write them.
#include <gtest/gtest.h>

#include <archfit/base/duration.hpp>
#include <archfit/base/error.hpp>

namespace archfit {
namespace {

using std::chrono::seconds;

struct Good {
  const char* text;
  std::int64_t seconds;
  const char* formatted;
};

class DurationGood : public ::testing::TestWithParam<Good> {};

TEST_P(DurationGood, ParsesFormatsAndRoundTrips) {
  const Good& g = GetParam();
  EXPECT_EQ(parse_duration(g.text), seconds(g.seconds));
  EXPECT_EQ(format_duration(seconds(g.seconds)), g.formatted);
  EXPECT_EQ(parse_duration(format_duration(seconds(g.seconds))), seconds(g.seconds));
}

INSTANTIATE_TEST_SUITE_P(
    Table, DurationGood,
    ::testing::Values(Good{"0", 0, "0s"}, Good{"0s", 0, "0s"}, Good{"30s", 30, "30s"},
                      Good{"90s", 90, "1m30s"}, Good{"5m", 300, "5m"}, Good{"1h30m", 5400, "1h30m"},
                      Good{"24h", 86400, "1d"}, Good{"7d", 604800, "7d"},
                      Good{"2w", 1209600, "14d"}, Good{"1d2h3m4s", 93784, "1d2h3m4s"},
                      Good{"30m1h", 5400, "1h30m"}, Good{"1m1m", 120, "2m"},
                      Good{" 10s ", 10, "10s"}, Good{"+10s", 10, "10s"}, Good{"0h", 0, "0s"},
                      Good{"3650d", 3650 * 86400, "3650d"}, Good{"87600h", 3650 * 86400, "3650d"}));

// The longest duration, in the finest clock, a few times over, from the
// clock's now: inside the clock's range (UBSan checks the arithmetic).
TEST(Duration, TheLongestFitsEveryClock) {
  auto longest = parse_duration("3650d");
  EXPECT_EQ(longest, kLongestDuration);
  auto deadline = std::chrono::steady_clock::now() + 8 * longest;
  auto expiry = std::chrono::system_clock::now() + 8 * longest;
  EXPECT_GT(deadline, std::chrono::steady_clock::now());
  EXPECT_GT(expiry, std::chrono::system_clock::now());
  EXPECT_GT(std::chrono::duration_cast<std::chrono::nanoseconds>(8 * longest).count(), 0);
}

#define LONG "too large: at most 3650d (ten years)"

struct Bad {
  const char* text;
  const char* message;
};

class DurationBad : public ::testing::TestWithParam<Bad> {};

TEST_P(DurationBad, QuotesTheInputAndTheRule) {
  const Bad& b = GetParam();
  try {
    parse_duration(b.text);
    FAIL() << "accepted " << b.text;
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Config);
    EXPECT_EQ(e.message(), b.message);
  }
  std::string why;
  EXPECT_FALSE(try_parse_duration(b.text, &why));
  EXPECT_EQ(why, b.message);
}

INSTANTIATE_TEST_SUITE_P(
    Table, DurationBad,
    ::testing::Values(
        Bad{"", "invalid duration \"\": empty; use s, m, h, d or w, e.g. 30s, 1h30m, 7d"},
        Bad{"  ", "invalid duration \"  \": empty; use s, m, h, d or w, e.g. 30s, 1h30m, 7d"},
        Bad{"-5s", "invalid duration \"-5s\": must not be negative"},
        Bad{"10",
            "invalid duration \"10\": missing unit after 10; use s, m, h, d or w, e.g. 30s, "
            "1h30m, 7d"},
        Bad{"5x",
            "invalid duration \"5x\": unknown unit \"x\"; use s, m, h, d or w, e.g. 30s, "
            "1h30m, 7d"},
        Bad{"5ms",
            "invalid duration \"5ms\": unknown unit \"ms\"; use s, m, h, d or w, e.g. 30s, "
            "1h30m, 7d"},
        Bad{"1H",
            "invalid duration \"1H\": unknown unit \"H\"; use s, m, h, d or w, e.g. 30s, "
            "1h30m, 7d"},
        Bad{"1.5h", "invalid duration \"1.5h\": fractions are not supported; write 90m, not 1.5h"},
        Bad{"h",
            "invalid duration \"h\": expected a number at \"h\"; use s, m, h, d or w, e.g. "
            "30s, 1h30m, 7d"},
        Bad{"1h 30m",
            "invalid duration \"1h 30m\": unknown unit \"h \"; use s, m, h, d or w, "
            "e.g. 30s, 1h30m, 7d"},
        Bad{"99999999999999999999s", "invalid duration \"99999999999999999999s\": " LONG},
        Bad{"9223372036854775807w", "invalid duration \"9223372036854775807w\": " LONG},
        Bad{"9223372036854775807s1s", "invalid duration \"9223372036854775807s1s\": " LONG},
        Bad{"9223372036854775807s", "invalid duration \"9223372036854775807s\": " LONG},
        Bad{"99999999999h", "invalid duration \"99999999999h\": " LONG},
        Bad{"3651d", "invalid duration \"3651d\": " LONG},
        Bad{"3650d1s", "invalid duration \"3650d1s\": " LONG}),
    [](const ::testing::TestParamInfo<Bad>& test) { return "Case" + std::to_string(test.index); });

}  // namespace
}  // namespace archfit
