// base64 as Secret data and docker "auth" fields use it: RFC 4648 test
// vectors, round trips, blanks skipped, and every malformed shape refused.
#include <gtest/gtest.h>

#include <archfit/base/base64.hpp>

namespace archfit {
namespace {

TEST(Base64, Rfc4648Vectors) {
  const std::pair<const char*, const char*> rows[] = {
      {"", ""},
      {"f", "Zg=="},
      {"fo", "Zm8="},
      {"foo", "Zm9v"},
      {"foob", "Zm9vYg=="},
      {"fooba", "Zm9vYmE="},
      {"foobar", "Zm9vYmFy"},
  };
  for (auto [plain, encoded] : rows) {
    EXPECT_EQ(base64_encode(plain), encoded) << plain;
    EXPECT_EQ(base64_decode(encoded), std::optional<std::string>(plain)) << encoded;
  }
}

TEST(Base64, RoundTripsEveryByte) {
  std::string all;
  for (int i = 0; i < 256; ++i)
    all += static_cast<char>(i);
  for (std::size_t n = 0; n <= all.size(); n += 37) {
    std::string data = all.substr(0, n);
    EXPECT_EQ(base64_decode(base64_encode(data)), data) << n;
  }
  EXPECT_EQ(base64_encode("\xff\xfe\xfd"), "//79");
  EXPECT_EQ(base64_encode("\xfb\xef"), "++8=");
}

TEST(Base64, SkipsBlanksAndLineBreaks) {
  EXPECT_EQ(base64_decode("dXNl\ncjpw\r\nYXNz\n"), "user:pass");
  EXPECT_EQ(base64_decode("  dXNlcjpwYXNz  "), "user:pass");
  EXPECT_EQ(base64_decode("Zm9vYg=\n="), "foob");
  EXPECT_EQ(base64_decode(" \n\t"), "");
}

TEST(Base64, RefusesMalformedText) {
  for (const char* bad : {"Zg", "Zg=", "Zm9vY", "Z===", "====", "Zm9v=", "Zg==Zg==", "Zm9v!",
                          "dXNlcjpwYXNz-", "Zm9_", "Zm9v\x80", "Zg==="}) {
    EXPECT_EQ(base64_decode(bad), std::nullopt) << bad;
  }
}

// Go's StdEncoding, which kubectl and docker use, ignores the unused low bits
// of the last digit; so do we.
TEST(Base64, IgnoresUnusedTrailingBits) {
  EXPECT_EQ(base64_decode("Zh=="), "f");
  EXPECT_EQ(base64_decode("Zm9="), "fo");
}

}  // namespace
}  // namespace archfit
