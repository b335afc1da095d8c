#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include <gtest/gtest.h>

#include <archfit/base/error.hpp>
#include <archfit/yaml/scalar.hpp>

#include "support/param_name.hpp"

namespace archfit::yaml {
namespace {

using archfit::testing::param_name;

// One row: the text of a plain scalar and what go-yaml v2 makes of it.
struct Case {
  std::string text;
  ScalarType type = ScalarType::String;
  bool boolean = false;
  std::int64_t integer = 0;
  bool is_unsigned = false;
  bool is_big = false;
  double real = 0;
};

Case Str(std::string text) {
  return {std::move(text)};
}
Case Null(std::string text) {
  return {std::move(text), ScalarType::Null};
}
Case Merge(std::string text) {
  return {std::move(text), ScalarType::Merge};
}
Case Bool(std::string text, bool b) {
  return {std::move(text), ScalarType::Bool, b};
}
Case Int(std::string text, std::int64_t v) {
  return {std::move(text), ScalarType::Int, false, v};
}
Case Uint(std::string text, std::uint64_t v) {
  return {std::move(text), ScalarType::Int, false, static_cast<std::int64_t>(v), true};
}
Case Big(std::string text) {
  return {std::move(text), ScalarType::Int, false, 0, false, true};
}
Case Float(std::string text, double v) {
  return {std::move(text), ScalarType::Float, false, 0, false, false, v};
}

void expect_resolves(const Resolved& r, const Case& c) {
  ASSERT_EQ(static_cast<int>(r.type), static_cast<int>(c.type)) << "text: " << c.text;
  switch (c.type) {
    case ScalarType::Bool:
      EXPECT_EQ(r.boolean, c.boolean) << c.text;
      break;
    case ScalarType::Int:
      EXPECT_EQ(r.integer, c.integer) << c.text;
      EXPECT_EQ(r.is_unsigned, c.is_unsigned) << c.text;
      EXPECT_EQ(r.is_big, c.is_big) << c.text;
      break;
    case ScalarType::Float:
      if (std::isnan(c.real)) {
        EXPECT_TRUE(std::isnan(r.real)) << c.text;
      } else {
        EXPECT_EQ(r.real, c.real) << c.text;
        EXPECT_EQ(std::signbit(r.real), std::signbit(c.real)) << c.text;
      }
      break;
    default:
      break;
  }
}

class ScalarResolvePlain : public ::testing::TestWithParam<Case> {};

TEST_P(ScalarResolvePlain, AsGoYamlV2) {
  expect_resolves(resolve_plain(GetParam().text), GetParam());
}

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();

INSTANTIATE_TEST_SUITE_P(Nulls, ScalarResolvePlain,
                         ::testing::Values(Null(""), Null("~"), Null("null"), Null("Null"),
                                           Null("NULL"), Str("nULL"), Str("NuLL"), Str("nil"),
                                           Str("None"), Str("~~")),
                         [](const auto& test) { return param_name(test.param.text, test.index); });

// v2's table: y, yes, true, on (and their n/no/false/off), each in three
// spellings only. YAML 1.2 readers take just true/false.
INSTANTIATE_TEST_SUITE_P(
    Bools, ScalarResolvePlain,
    ::testing::Values(Bool("y", true), Bool("Y", true), Bool("yes", true), Bool("Yes", true),
                      Bool("YES", true), Bool("true", true), Bool("True", true), Bool("TRUE", true),
                      Bool("on", true), Bool("On", true), Bool("ON", true), Bool("n", false),
                      Bool("N", false), Bool("no", false), Bool("No", false), Bool("NO", false),
                      Bool("false", false), Bool("False", false), Bool("FALSE", false),
                      Bool("off", false), Bool("Off", false), Bool("OFF", false), Str("yES"),
                      Str("tRUE"), Str("oN"), Str("oFF"), Str("t"), Str("f"), Str("T"), Str("F"),
                      Str("yeah"), Str("nope"), Str("ok"), Str("truee"), Str("onn")),
    [](const auto& test) { return param_name(test.param.text, test.index); });

INSTANTIATE_TEST_SUITE_P(
    Ints, ScalarResolvePlain,
    ::testing::Values(Int("0", 0), Int("-0", 0), Int("+0", 0), Int("00", 0), Int("1", 1),
                      Int("+1", 1), Int("-1", -1), Int("42", 42), Int("685230", 685230),
                      Int("+685_230", 685230), Int("1_000", 1000), Int("1__0", 10), Int("1_", 1),
                      Int("+_1", 1), Int("-_1", -1), Str("_1"), Int("0x1F", 31), Int("0X1f", 31),
                      Int("0x_0A_74_AE", 685230), Int("-0x1F", -31), Int("+0x1F", 31), Str("0x"),
                      Str("0xG"), Int("0o17", 15), Int("0O17", 15), Str("0o"), Str("0o8"),
                      Int("017", 15), Int("0777", 511), Int("02472256", 685230), Int("-017", -15),
                      Int("0b101", 5), Int("0B101", 5), Int("-0b101", -5),
                      Int("0b1010_0111_0100_1010_1110", 685230), Str("0b"), Str("0b2"),
                      // v2 retries the digits after a lower-case 0b with base 2, which
                      // accepts a sign there.
                      Int("0b-11", -3), Int("0b+11", 3), Str("-0b-11"), Str("-0b+11"),
                      Int("9223372036854775807", kMax), Int("-9223372036854775808", kMin),
                      Uint("9223372036854775808", 9223372036854775808u),
                      Uint("18446744073709551615", 18446744073709551615u),
                      Uint("0xFFFFFFFFFFFFFFFF", 18446744073709551615u),
                      Uint("0b1111111111111111111111111111111111111111111111111111111111111111",
                           18446744073709551615u),
                      Int("-0b1000000000000000000000000000000000000000000000000000000000000000",
                          kMin),
                      Int("0x7FFFFFFFFFFFFFFF", kMax), Big("0x10000000000000000"),
                      Big("0b11111111111111111111111111111111111111111111111111111111111111111"),
                      // An overflowing 0-prefixed octal is all digits, so v2's float pattern
                      // takes it before the big-integer fallback; 0o does not match it.
                      Float("02000000000000000000000", 2e21), Big("0o2000000000000000000000"),
                      Big("1" + std::string(400, '0')), Str("-0x10000000000000000"),
                      Str("-1" + std::string(400, '0')), Str("0x10000000000000000zz")),
    [](const auto& test) { return param_name(test.param.text, test.index); });

INSTANTIATE_TEST_SUITE_P(
    Floats, ScalarResolvePlain,
    ::testing::Values(Float(".5", 0.5), Float("-.5", -0.5), Float("+.5", 0.5), Float("5.", 5),
                      Float("0.1", 0.1), Float("-1.5", -1.5), Float("1e3", 1000),
                      Float("1E3", 1000), Float("1e+3", 1000), Float("1e-3", 0.001),
                      Float("1.0e+3", 1000), Float("123456e1", 1234560), Float("6.8523e+5", 685230),
                      Float("685.230_15e+03", 685230.15), Float("685_230.15", 685230.15),
                      Float("1_000.5", 1000.5), Float("1e3_0", 1e30),
                      // Not octal (8 is not an octal digit) but a float by v2's pattern.
                      Float("08", 8), Float("-08", -8), Float("0999", 999), Float("09.5", 9.5),
                      Float("18446744073709551616", 18446744073709551616.0),
                      Float("-9223372036854775809", -9223372036854775809.0),
                      Float("+18446744073709551615", 18446744073709551615.0), Float(".inf", kInf),
                      Float(".Inf", kInf), Float(".INF", kInf), Float("+.inf", kInf),
                      Float("+.Inf", kInf), Float("+.INF", kInf), Float("-.inf", -kInf),
                      Float("-.Inf", -kInf), Float("-.INF", -kInf), Float(".nan", kNaN),
                      Float(".NaN", kNaN), Float(".NAN", kNaN), Str(".Nan"), Str(".iNf"),
                      Str("+.nan"), Str("-.nan"), Str("+.iNF"), Str("inf"), Str("-inf"),
                      Str("+inf"), Str("Infinity"), Str("NaN"), Str("nan"),
                      // ParseFloat on text starting with '.' sees the underscores itself.
                      Float(".5_0", 0.5), Float(".5e1_0", 5e9), Str("._5"), Str(".5_"),
                      Str(".5__0"), Str(".5e_1"), Float(".5e-3", 0.0005),
                      // Overflow makes Go's ParseFloat fail, underflow gives zero.
                      Str("1e400"), Str(".5e400"), Str("-1e400"), Float("1e-400", 0.0),
                      Float("-1e-400", -0.0), Float("4.9e-324", 4.9e-324), Str("1.5e"), Str("1e"),
                      Str("1e+"), Str("."), Str("+."), Str(".e5"), Str("1.2.3"), Str("1e3.5"),
                      Str("0x1p3"), Str("1,000"), Str("1.0.0-rc1"), Str("10.0.0.1")),
    [](const auto& test) { return param_name(test.param.text, test.index); });

INSTANTIATE_TEST_SUITE_P(
    Strings, ScalarResolvePlain,
    ::testing::Values(Merge("<<"), Str("<"), Str("<<<"), Str("="), Str("=="), Str("= "), Str("-"),
                      Str("+"), Str("--"), Str("+-1"), Str("1-2"), Str("1:20"), Str("190:20:30"),
                      Str("190:20:30.15"), Str("2001-12-14"), Str("2001-12-14t21:59:43.10-05:00"),
                      Str("2001-12-14 21:59:43.10"), Str("2002-12-14"), Str("a"), Str("arm64"),
                      Str("amd64"), Str("linux/arm64"), Str("kubernetes.io/arch"),
                      Str("NoSchedule"), Str("100m"), Str("1Gi"), Str("3s"), Str("12e"),
                      Str("0.0.0.0"), Str("v1"), Str("1a"), Str("-a"), Str("o"), Str("O"),
                      Str("~a"), Str("null "), Str(" null"), Str("true\n")),
    [](const auto& test) { return param_name(test.param.text, test.index); });

// ---- tags and styles ----

constexpr const char* kStr = "tag:yaml.org,2002:str";
constexpr const char* kInt = "tag:yaml.org,2002:int";
constexpr const char* kFloat = "tag:yaml.org,2002:float";
constexpr const char* kBool = "tag:yaml.org,2002:bool";
constexpr const char* kNull = "tag:yaml.org,2002:null";
constexpr const char* kTimestamp = "tag:yaml.org,2002:timestamp";

struct TagCase {
  std::string tag;
  bool plain;
  Case expect;
};

class ResolveScalar : public ::testing::TestWithParam<TagCase> {};

TEST_P(ResolveScalar, TagThenStyle) {
  const TagCase& c = GetParam();
  expect_resolves(resolve_scalar(c.expect.text, c.tag, c.plain), c.expect);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, ResolveScalar,
    ::testing::Values(
        // Untagged: plain resolves, anything else is a string.
        TagCase{"", true, Int("123", 123)}, TagCase{"", false, Str("123")},
        TagCase{"", false, Str("true")}, TagCase{"", false, Str("")}, TagCase{"", false, Str("~")},
        TagCase{"", true, Null("")}, TagCase{"", false, Str("<<")},
        // The non-specific tag and tags v2 does not resolve keep the text.
        TagCase{"!", true, Str("123")}, TagCase{"!", true, Str("yes")},
        TagCase{"!foo", true, Str("123")}, TagCase{"tag:example.com,2000:x", true, Str("1.5")},
        TagCase{"tag:yaml.org,2002:binary", true, Str("gIGC")},
        TagCase{"tag:yaml.org,2002:merge", true, Str("<<")}, TagCase{kStr, true, Str("123")},
        TagCase{"!!str", true, Str("true")}, TagCase{kStr, false, Str("")},
        // Core tags decide whatever the style.
        TagCase{kInt, true, Int("123", 123)}, TagCase{kInt, false, Int("0x1F", 31)},
        TagCase{"!!int", false, Int("1_000", 1000)},
        TagCase{kInt, true, Uint("18446744073709551615", 18446744073709551615u)},
        TagCase{kInt, true, Big("0x10000000000000000")}, TagCase{kFloat, true, Float("1", 1)},
        TagCase{kFloat, false, Float("-1", -1)}, TagCase{kFloat, false, Float("1.1", 1.1)},
        TagCase{kFloat, true, Float(".inf", kInf)}, TagCase{kFloat, true, Float("08", 8)},
        TagCase{kBool, false, Bool("yes", true)}, TagCase{kBool, true, Bool("OFF", false)},
        TagCase{kNull, false, Null("")}, TagCase{kNull, true, Null("~")},
        TagCase{"!!null", true, Null("NULL")}, TagCase{kTimestamp, true, Str("2001-12-14")},
        TagCase{kTimestamp, false, Str("2015-2-3T3:4:5Z")},
        TagCase{kTimestamp, true, Str("2001-12-14t21:59:43.10-05:00")},
        TagCase{kTimestamp, true, Str("2001-12-14T21:59:43,5+24:00")},
        TagCase{kTimestamp, true, Str("2001-12-14   21:59:43.10")},
        TagCase{kTimestamp, true, Str("2000-02-29")}),
    [](const auto& test) { return param_name(test.param.expect.text, test.index); });

struct BadTag {
  std::string tag;
  std::string text;
  std::string message;
};

class ResolveScalarRejects : public ::testing::TestWithParam<BadTag> {};

TEST_P(ResolveScalarRejects, QuotesTheText) {
  const BadTag& c = GetParam();
  try {
    resolve_scalar(c.text, c.tag, true);
    FAIL() << "accepted " << c.tag << " " << c.text;
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Input);
    EXPECT_EQ(e.message(), c.message);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Cases, ResolveScalarRejects,
    ::testing::Values(
        BadTag{kInt, "x",
               "cannot read \"x\" as !!int: it reads as !!str; remove the tag or fix the value"},
        BadTag{"!!int", "1.5",
               "cannot read \"1.5\" as !!int: it reads as !!float; remove the tag or fix the "
               "value"},
        BadTag{kInt, "08",
               "cannot read \"08\" as !!int: it reads as !!float; remove the tag or fix the "
               "value"},
        BadTag{kInt, "2001-12-14",
               "cannot read \"2001-12-14\" as !!int: it reads as !!str; remove the tag or fix "
               "the value"},
        BadTag{kInt, "",
               "cannot read \"\" as !!int: it reads as !!null; remove the tag or fix "
               "the value"},
        // v2 converts an int to a float only when it fits int64.
        BadTag{kFloat, "18446744073709551615",
               "cannot read \"18446744073709551615\" as !!float: it reads as !!int; remove the "
               "tag or fix the value"},
        BadTag{kFloat, "x",
               "cannot read \"x\" as !!float: it reads as !!str; remove the tag or fix the value"},
        BadTag{kBool, "1",
               "cannot read \"1\" as !!bool: it reads as !!int; remove the tag or fix the value"},
        BadTag{kBool, "",
               "cannot read \"\" as !!bool: it reads as !!null; remove the tag or fix the value"},
        BadTag{kNull, "x",
               "cannot read \"x\" as !!null: it reads as !!str; remove the tag or fix the value"},
        BadTag{kNull, "<<",
               "cannot read \"<<\" as !!null: it reads as !!str; remove the tag or fix the "
               "value"},
        BadTag{kTimestamp, "x",
               "cannot read \"x\" as !!timestamp: it reads as !!str; remove the tag or fix the "
               "value"},
        BadTag{kTimestamp, "123",
               "cannot read \"123\" as !!timestamp: it reads as !!int; remove the tag or fix "
               "the value"},
        BadTag{kTimestamp, "2001-02-29",
               "cannot read \"2001-02-29\" as !!timestamp: it reads as !!str; remove the tag or "
               "fix the value"},
        BadTag{kTimestamp, "2001-13-01",
               "cannot read \"2001-13-01\" as !!timestamp: it reads as !!str; remove the tag or "
               "fix the value"},
        BadTag{kTimestamp, "2001-12-14T21:59:43",
               "cannot read \"2001-12-14T21:59:43\" as !!timestamp: it reads as !!str; remove "
               "the tag or fix the value"},
        BadTag{kTimestamp, "2001-12-14 21:59:43.10 -5",
               "cannot read \"2001-12-14 21:59:43.10 -5\" as !!timestamp: it reads as !!str; "
               "remove the tag or fix the value"},
        BadTag{kTimestamp, "2001-12-14T24:00:00Z",
               "cannot read \"2001-12-14T24:00:00Z\" as !!timestamp: it reads as !!str; remove "
               "the tag or fix the value"}),
    [](const auto& test) { return param_name(test.param.text, test.index); });

}  // namespace
}  // namespace archfit::yaml
