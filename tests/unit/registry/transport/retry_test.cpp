#include <gtest/gtest.h>

#include <archfit/registry/transport/retry.hpp>

namespace archfit::registry {
namespace {

using std::chrono::milliseconds;

TEST(RetryAfter, SecondsAndHttpDates) {
  auto now = std::chrono::system_clock::from_time_t(1445412480);  // Wed, 21 Oct 2015 07:28:00 GMT
  EXPECT_EQ(parse_retry_after("120", now), milliseconds(120000));
  EXPECT_EQ(parse_retry_after(" 0 ", now), milliseconds(0));
  EXPECT_EQ(parse_retry_after("Wed, 21 Oct 2015 07:28:30 GMT", now), milliseconds(30000));
  EXPECT_EQ(parse_retry_after("Wed, 21 Oct 2015 07:27:00 GMT", now), milliseconds(0));
  EXPECT_EQ(parse_retry_after("", now), std::nullopt);
  EXPECT_EQ(parse_retry_after("-5", now), std::nullopt);
  EXPECT_EQ(parse_retry_after("soon", now), std::nullopt);
  EXPECT_EQ(parse_retry_after("12s", now), std::nullopt);
}

TEST(RetryDelay, RetryAfterWinsElseJitteredExponential) {
  RetryPolicy p;
  p.base_delay = milliseconds(100);
  p.max_delay = milliseconds(1000);
  EXPECT_EQ(retry_delay(p, 1, milliseconds(2500)), milliseconds(2500));
  for (int i = 0; i < 200; ++i) {
    auto first = retry_delay(p, 1, std::nullopt);
    EXPECT_GE(first, milliseconds(50));
    EXPECT_LE(first, milliseconds(150));
    auto third = retry_delay(p, 3, std::nullopt);
    EXPECT_GE(third, milliseconds(200));
    EXPECT_LE(third, milliseconds(600));
    auto capped = retry_delay(p, 30, std::nullopt);
    EXPECT_LE(capped, milliseconds(1500));
  }
}

TEST(Retryable, StatusesAndFailures) {
  auto status = [](long s) {
    HttpResponse r;
    r.status = s;
    return r;
  };
  auto failure = [](Failure f) {
    HttpResponse r;
    r.failure = f;
    return r;
  };
  for (long s : {429L, 500L, 502L, 503L, 504L})
    EXPECT_TRUE(is_retryable(status(s))) << s;
  for (long s : {200L, 401L, 403L, 404L, 501L})
    EXPECT_FALSE(is_retryable(status(s))) << s;
  EXPECT_TRUE(is_retryable(failure(Failure::Timeout)));
  EXPECT_TRUE(is_retryable(failure(Failure::Connect)));
  EXPECT_TRUE(is_retryable(failure(Failure::Truncated)));
  EXPECT_FALSE(is_retryable(failure(Failure::Tls)));
  EXPECT_FALSE(is_retryable(failure(Failure::TooLarge)));
}

}  // namespace
}  // namespace archfit::registry
