#include <string>

#include <gtest/gtest.h>

#include <archfit/base/error.hpp>
#include <archfit/yaml/scalar.hpp>

#include "support/param_name.hpp"

namespace archfit::yaml {
namespace {

using archfit::testing::param_name;

struct EmitCase {
  std::string value;
  std::string block;  // emit_string(value) == emit_string(value, Context::Key) for these
  std::string flow;
};

class EmitString : public ::testing::TestWithParam<EmitCase> {};

TEST_P(EmitString, ExactText) {
  const EmitCase& c = GetParam();
  EXPECT_EQ(emit_string(c.value), c.block);
  EXPECT_EQ(emit_string(c.value, Context::Key), c.block);
  EXPECT_EQ(emit_string(c.value, Context::Flow), c.flow);
  EXPECT_EQ(plain_safe(c.value), c.block == c.value);
  EXPECT_EQ(plain_safe(c.value, Context::Flow), c.flow == c.value);
}

// Plain where every reader agrees the text is this string.
INSTANTIATE_TEST_SUITE_P(
    Plain, EmitString,
    ::testing::Values(
        EmitCase{"kubernetes.io/arch", "kubernetes.io/arch", "kubernetes.io/arch"},
        EmitCase{"NoSchedule", "NoSchedule", "NoSchedule"}, EmitCase{"arm64", "arm64", "arm64"},
        EmitCase{"amd64", "amd64", "amd64"}, EmitCase{"In", "In", "In"},
        EmitCase{"Exists", "Exists", "Exists"},
        EmitCase{"archfit.io/platforms", "archfit.io/platforms", "archfit.io/platforms"},
        EmitCase{"nginx:1.25", "nginx:1.25", "\"nginx:1.25\""}, EmitCase{"a b", "a b", "a b"},
        EmitCase{"a#b", "a#b", "a#b"}, EmitCase{"it's", "it's", "it's"},
        EmitCase{"say \"hi\"", "say \"hi\"", "say \"hi\""},
        EmitCase{"C:\\dir", "C:\\dir", "\"C:\\\\dir\""},
        EmitCase{"-Xmx512m", "-Xmx512m", "-Xmx512m"}, EmitCase{"--flag=x", "--flag=x", "--flag=x"},
        EmitCase{"1.2.3", "1.2.3", "1.2.3"}, EmitCase{"10.0.0.1", "10.0.0.1", "10.0.0.1"},
        EmitCase{"100m", "100m", "100m"}, EmitCase{"1Gi", "1Gi", "1Gi"}, EmitCase{"v1", "v1", "v1"},
        EmitCase{"1.0.0-rc1", "1.0.0-rc1", "1.0.0-rc1"}, EmitCase{"+", "+", "+"},
        EmitCase{".", ".", "."}, EmitCase{"<<x", "<<x", "<<x"}, EmitCase{"==", "==", "=="},
        EmitCase{"caf\xC3\xA9", "caf\xC3\xA9", "caf\xC3\xA9"},
        EmitCase{"\xE4\xB8\xAD\xE6\x96\x87", "\xE4\xB8\xAD\xE6\x96\x87",
                 "\xE4\xB8\xAD\xE6\x96\x87"},
        EmitCase{"\xF0\x9F\x98\x80", "\xF0\x9F\x98\x80", "\xF0\x9F\x98\x80"},
        EmitCase{"a\xC2\xA0", "a\xC2\xA0", "a\xC2\xA0"}),
    [](const auto& test) { return param_name(test.param.value, test.index); });

// Block context keeps list-like values plain; flow context cannot.
INSTANTIATE_TEST_SUITE_P(
    FlowOnly, EmitString,
    ::testing::Values(EmitCase{"linux/amd64,linux/arm64", "linux/amd64,linux/arm64",
                               "\"linux/amd64,linux/arm64\""},
                      EmitCase{"a[0]", "a[0]", "\"a[0]\""}, EmitCase{"a{b}", "a{b}", "\"a{b}\""},
                      EmitCase{"a]", "a]", "\"a]\""}, EmitCase{"a:b", "a:b", "\"a:b\""},
                      EmitCase{"a?b", "a?b", "\"a?b\""},
                      EmitCase{"http://x.io/a", "http://x.io/a", "\"http://x.io/a\""}),
    [](const auto& test) { return param_name(test.param.value, test.index); });

// Words and numbers some reader would not read as a string.
INSTANTIATE_TEST_SUITE_P(
    Resolving, EmitString,
    ::testing::Values(
        EmitCase{"", "\"\"", "\"\""}, EmitCase{"true", "\"true\"", "\"true\""},
        EmitCase{"True", "\"True\"", "\"True\""}, EmitCase{"on", "\"on\"", "\"on\""},
        EmitCase{"Off", "\"Off\"", "\"Off\""}, EmitCase{"y", "\"y\"", "\"y\""},
        EmitCase{"N", "\"N\"", "\"N\""}, EmitCase{"yes", "\"yes\"", "\"yes\""},
        EmitCase{"nULL", "\"nULL\"", "\"nULL\""}, EmitCase{"~", "\"~\"", "\"~\""},
        EmitCase{"null", "\"null\"", "\"null\""}, EmitCase{"0x1F", "\"0x1F\"", "\"0x1F\""},
        EmitCase{"0o17", "\"0o17\"", "\"0o17\""}, EmitCase{"0777", "\"0777\"", "\"0777\""},
        EmitCase{"08", "\"08\"", "\"08\""}, EmitCase{"0b2", "\"0b2\"", "\"0b2\""},
        EmitCase{"0b-1", "\"0b-1\"", "\"0b-1\""}, EmitCase{"1e3", "\"1e3\"", "\"1e3\""},
        EmitCase{"1.0e+3", "\"1.0e+3\"", "\"1.0e+3\""}, EmitCase{".5", "\".5\"", "\".5\""},
        EmitCase{"5.", "\"5.\"", "\"5.\""}, EmitCase{"+1", "\"+1\"", "\"+1\""},
        EmitCase{"-0", "\"-0\"", "\"-0\""}, EmitCase{"1_000", "\"1_000\"", "\"1_000\""},
        EmitCase{"_", "\"_\"", "\"_\""}, EmitCase{"._", "\"._\"", "\"._\""},
        EmitCase{"1:20", "\"1:20\"", "\"1:20\""}, EmitCase{".inf", "\".inf\"", "\".inf\""},
        EmitCase{"-.Inf", "\"-.Inf\"", "\"-.Inf\""}, EmitCase{"+.inf", "\"+.inf\"", "\"+.inf\""},
        EmitCase{".NaN", "\".NaN\"", "\".NaN\""}, EmitCase{"nan", "\"nan\"", "\"nan\""},
        EmitCase{"Infinity", "\"Infinity\"", "\"Infinity\""},
        EmitCase{"9223372036854775808", "\"9223372036854775808\"", "\"9223372036854775808\""},
        EmitCase{"2001-12-14", "\"2001-12-14\"", "\"2001-12-14\""},
        EmitCase{"2001-12-14t21:59:43.10-05:00", "\"2001-12-14t21:59:43.10-05:00\"",
                 "\"2001-12-14t21:59:43.10-05:00\""},
        EmitCase{"<<", "\"<<\"", "\"<<\""}, EmitCase{"=", "\"=\"", "\"=\""}),
    [](const auto& test) { return param_name(test.param.value, test.index); });

// Indicators, comments, spaces and characters that need escapes.
INSTANTIATE_TEST_SUITE_P(
    Syntax, EmitString,
    ::testing::Values(
        EmitCase{": ", "\": \"", "\": \""}, EmitCase{"a: b", "\"a: b\"", "\"a: b\""},
        EmitCase{"a:", "\"a:\"", "\"a:\""}, EmitCase{" #", "\" #\"", "\" #\""},
        EmitCase{"a #b", "\"a #b\"", "\"a #b\""}, EmitCase{"#a", "\"#a\"", "\"#a\""},
        EmitCase{"- a", "\"- a\"", "\"- a\""}, EmitCase{"-", "\"-\"", "\"-\""},
        EmitCase{"---", "\"---\"", "\"---\""}, EmitCase{"... x", "\"... x\"", "\"... x\""},
        EmitCase{"?x", "\"?x\"", "\"?x\""}, EmitCase{":x", "\":x\"", "\":x\""},
        EmitCase{"*ref", "\"*ref\"", "\"*ref\""}, EmitCase{"&a", "\"&a\"", "\"&a\""},
        EmitCase{"!tag", "\"!tag\"", "\"!tag\""}, EmitCase{"|", "\"|\"", "\"|\""},
        EmitCase{">x", "\">x\"", "\">x\""}, EmitCase{"'q'", "\"'q'\"", "\"'q'\""},
        EmitCase{"\"q\"", "\"\\\"q\\\"\"", "\"\\\"q\\\"\""}, EmitCase{"%x", "\"%x\"", "\"%x\""},
        EmitCase{"@x", "\"@x\"", "\"@x\""}, EmitCase{"`x`", "\"`x`\"", "\"`x`\""},
        EmitCase{"{{ .Values.x }}", "\"{{ .Values.x }}\"", "\"{{ .Values.x }}\""},
        EmitCase{"[a]", "\"[a]\"", "\"[a]\""}, EmitCase{",a", "\",a\"", "\",a\""},
        EmitCase{" a", "\" a\"", "\" a\""}, EmitCase{"a ", "\"a \"", "\"a \""},
        EmitCase{" ", "\" \"", "\" \""}, EmitCase{"a\tb", "\"a\\tb\"", "\"a\\tb\""},
        EmitCase{"a\nb", "\"a\\nb\"", "\"a\\nb\""}, EmitCase{"a\r\n", "\"a\\r\\n\"", "\"a\\r\\n\""},
        EmitCase{std::string("a\0b", 3), "\"a\\u0000b\"", "\"a\\u0000b\""},
        EmitCase{"\x08\x0C\x1B\x7F", "\"\\b\\f\\u001B\\u007F\"", "\"\\b\\f\\u001B\\u007F\""},
        EmitCase{"a\xC2\x85", "\"a\\u0085\"", "\"a\\u0085\""},
        EmitCase{"\xC2\x80\xC2\x9F", "\"\\u0080\\u009F\"", "\"\\u0080\\u009F\""},
        EmitCase{"a\xE2\x80\xA8", "\"a\\u2028\"", "\"a\\u2028\""},
        EmitCase{"a\xE2\x80\xA9", "\"a\\u2029\"", "\"a\\u2029\""},
        EmitCase{"\xEF\xBB\xBF"
                 "a",
                 "\"\\uFEFFa\"", "\"\\uFEFFa\""},
        EmitCase{"\xEF\xBF\xBE\xEF\xBF\xBF", "\"\\uFFFE\\uFFFF\"", "\"\\uFFFE\\uFFFF\""},
        EmitCase{" caf\xC3\xA9 \xF0\x9F\x98\x80", "\" caf\xC3\xA9 \xF0\x9F\x98\x80\"",
                 "\" caf\xC3\xA9 \xF0\x9F\x98\x80\""},
        EmitCase{"back\\slash ", "\"back\\\\slash \"", "\"back\\\\slash \""}),
    [](const auto& test) { return param_name(test.param.value, test.index); });

TEST(EmitDoubleQuote, AlwaysQuotes) {
  EXPECT_EQ(double_quote("arm64"), "\"arm64\"");
  EXPECT_EQ(double_quote(""), "\"\"");
  EXPECT_EQ(double_quote("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(double_quote("\xF4\x8F\xBF\xBF"), "\"\xF4\x8F\xBF\xBF\"");  // U+10FFFF is printable
}

struct BadUtf8 {
  const char* name;
  std::string value;
  std::string message;
};

class EmitInvalidUtf8 : public ::testing::TestWithParam<BadUtf8> {};

TEST_P(EmitInvalidUtf8, IsAnInputError) {
  const BadUtf8& c = GetParam();
  EXPECT_FALSE(plain_safe(c.value));
  for (Context context : {Context::Block, Context::Flow, Context::Key}) {
    try {
      emit_string(c.value, context);
      FAIL() << "emitted invalid UTF-8";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Input);
      EXPECT_EQ(e.message(), c.message);
    }
  }
  EXPECT_THROW(double_quote(c.value), Error);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, EmitInvalidUtf8,
    ::testing::Values(
        BadUtf8{"stray_continuation", "a\x80",
                "\"a\\x80\" is not valid UTF-8 (byte 0x80 at offset 1); YAML text must be UTF-8"},
        BadUtf8{"latin1", "caf\xE9",
                "\"caf\\xe9\" is not valid UTF-8 (byte 0xE9 at offset 3); YAML text must be "
                "UTF-8"},
        BadUtf8{"overlong_slash", "\xC0\xAF",
                "\"\\xc0\\xaf\" is not valid UTF-8 (byte 0xC0 at offset 0); YAML text must be "
                "UTF-8"},
        BadUtf8{"overlong_three", "\xE0\x80\xAF",
                "\"\\xe0\\x80\\xaf\" is not valid UTF-8 (byte 0xE0 at offset 0); YAML text must "
                "be UTF-8"},
        BadUtf8{"surrogate", "\xED\xA0\x80",
                "\"\\xed\\xa0\\x80\" is not valid UTF-8 (byte 0xED at offset 0); YAML text must "
                "be UTF-8"},
        BadUtf8{"beyond_unicode", "\xF4\x90\x80\x80",
                "\"\\xf4\\x90\\x80\\x80\" is not valid UTF-8 (byte 0xF4 at offset 0); YAML text "
                "must be UTF-8"},
        BadUtf8{"truncated", "ok\xE4\xB8",
                "\"ok\\xe4\\xb8\" is not valid UTF-8 (byte 0xE4 at offset 2); YAML text must be "
                "UTF-8"},
        BadUtf8{"ff", "\xFF",
                "\"\\xff\" is not valid UTF-8 (byte 0xFF at offset 0); YAML text must be UTF-8"}),
    [](const auto& test) { return std::string(test.param.name); });

TEST(EmitKey, LongKeysCannotBeImplicit) {
  const std::string fits(kMaxImplicitKeyBytes, 'k');
  EXPECT_EQ(emit_string(fits, Context::Key), fits);
  const std::string quoted_fits = " " + std::string(kMaxImplicitKeyBytes - 3, 'k');
  EXPECT_EQ(emit_string(quoted_fits, Context::Key).size(), kMaxImplicitKeyBytes);

  const std::string too_long(kMaxImplicitKeyBytes + 1, 'k');
  EXPECT_FALSE(plain_safe(too_long, Context::Key));
  EXPECT_EQ(emit_string(too_long), too_long);  // fine as a value
  try {
    emit_string(too_long, Context::Key);
    FAIL() << "emitted a key libyaml cannot read";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Input);
    EXPECT_NE(e.message().find("1027 bytes"), std::string::npos) << e.message();
  }
  EXPECT_THROW(emit_string(" " + std::string(kMaxImplicitKeyBytes - 2, 'k'), Context::Key), Error);
}

}  // namespace
}  // namespace archfit::yaml
