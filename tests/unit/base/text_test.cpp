// Quoting input and making outside text printable for messages.
#include <gtest/gtest.h>

#include <archfit/base/text.hpp>

namespace archfit {
namespace {

TEST(Quoted, EscapesWhatWouldBreakALine) {
  EXPECT_EQ(quoted("a\tb"), "\"a\\tb\"");
  EXPECT_EQ(quoted("say \"hi\"\\"), "\"say \\\"hi\\\"\\\\\"");
  EXPECT_EQ(quoted("x\r\ny"), "\"x\\r\\ny\"");
  EXPECT_EQ(quoted("abcdef", 3), "\"abc...\"");
  EXPECT_EQ(quoted("grüße"), "\"grüße\"");
}

TEST(Printable, EscapesControlsAndBytesThatAreNotUtf8) {
  EXPECT_EQ(printable("token abc\r\nX-Injected: evil"), "token abc\\r\\nX-Injected: evil");
  EXPECT_EQ(printable("\x1b[31mred\x1b[0m"), "\\x1b[31mred\\x1b[0m");
  EXPECT_EQ(printable("del\x7f"), "del\\x7f");
  EXPECT_EQ(printable("latin1 \xe9t\xe9"), "latin1 \\xe9t\\xe9");
  EXPECT_EQ(printable("c1 \xc2\x9b"
                      "31m"),
            "c1 \\xc2\\x9b31m");                           // CSI as a C1 control
  EXPECT_EQ(printable("cut \xe2\x82"), "cut \\xe2\\x82");  // a sequence cut short
  EXPECT_EQ(printable("surrogate \xed\xa0\x80"), "surrogate \\xed\\xa0\\x80");
  EXPECT_EQ(printable("beyond \xf4\x90\x80\x80"), "beyond \\xf4\\x90\\x80\\x80");
  EXPECT_EQ(printable("overlong \xc0\xaf"), "overlong \\xc0\\xaf");
  EXPECT_EQ(printable("\xf5\x80\x80"), "\\xf5\\x80\\x80");
  EXPECT_EQ(printable("ok: grüße, 日本, 🚀, \"q\" \\"), "ok: grüße, 日本, 🚀, \"q\" \\");
  EXPECT_EQ(printable(std::string(400, 'a')), std::string(300, 'a') + "...");
  EXPECT_EQ(printable("abc", 2), "ab...");
}

// Only ASCII capitals are lowered, whatever the locale: every other byte of
// a name (a UTF-8 sequence included) stays as it is.
TEST(ToLower, LowersAsciiCapitalsAndNothingElse) {
  for (int b = 0; b < 256; ++b) {
    const char c = static_cast<char>(b);
    const char want = b >= 'A' && b <= 'Z' ? static_cast<char>(b + 32) : c;
    EXPECT_EQ(to_lower(std::string_view(&c, 1)), std::string(1, want)) << b;
  }
  EXPECT_EQ(to_lower("Linux/X86_64 ÉTÉ"), "linux/x86_64 ÉtÉ");
  EXPECT_TRUE(starts_with_ci("X86_64", "x86"));
  EXPECT_TRUE(starts_with_ci("Bearer realm", "BEARER"));
  EXPECT_FALSE(starts_with_ci("Éclair", "éc"));
  EXPECT_FALSE(starts_with_ci("ab", "abc"));
}

}  // namespace
}  // namespace archfit
