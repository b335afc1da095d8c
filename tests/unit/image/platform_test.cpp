#include <ostream>
#include <string>

#include <gtest/gtest.h>

#include <archfit/base/error.hpp>
#include <archfit/image/platform.hpp>

#include "support/param_name.hpp"

namespace archfit::image {
namespace {

using archfit::testing::param_name;

struct Normalization {
  std::string input;
  Platform expected;
  std::string formatted;
};

// Failures print the input rather than the bytes of the row.
void PrintTo(const Normalization& c, std::ostream* os) {
  *os << c.input;
}

class PlatformParse : public ::testing::TestWithParam<Normalization> {};

TEST_P(PlatformParse, NormalizesFormatsAndRoundTrips) {
  const Normalization& c = GetParam();
  Platform p = Platform::parse(c.input);
  EXPECT_EQ(p, c.expected) << p.str();
  EXPECT_EQ(p.str(), c.formatted);
  EXPECT_EQ(p.normalized(), p) << "parse returns the normalized form";

  Platform again = Platform::parse(p.str());
  EXPECT_EQ(again.str(), c.formatted);
  Platform without_version = p;
  without_version.os_version.clear();
  EXPECT_EQ(again, without_version);
}

INSTANTIATE_TEST_SUITE_P(
    Rows, PlatformParse,
    ::testing::Values(
        // amd64
        Normalization{"linux/amd64", {"linux", "amd64", "", ""}, "linux/amd64"},
        Normalization{"Linux/x86_64", {"linux", "amd64", "", ""}, "linux/amd64"},
        Normalization{"linux/x86-64", {"linux", "amd64", "", ""}, "linux/amd64"},
        Normalization{"linux/AMD64", {"linux", "amd64", "", ""}, "linux/amd64"},
        Normalization{"linux/amd64/v1", {"linux", "amd64", "", ""}, "linux/amd64"},
        Normalization{"linux/x86_64/v1", {"linux", "amd64", "", ""}, "linux/amd64"},
        Normalization{"linux/amd64/v2", {"linux", "amd64", "v2", ""}, "linux/amd64/v2"},
        Normalization{"linux/amd64/V3", {"linux", "amd64", "v3", ""}, "linux/amd64/v3"},
        // arm64
        Normalization{"linux/arm64", {"linux", "arm64", "", ""}, "linux/arm64"},
        Normalization{"linux/aarch64", {"linux", "arm64", "", ""}, "linux/arm64"},
        Normalization{"linux/Aarch64", {"linux", "arm64", "", ""}, "linux/arm64"},
        Normalization{"linux/arm64/v8", {"linux", "arm64", "", ""}, "linux/arm64"},
        Normalization{"linux/arm64/V8", {"linux", "arm64", "", ""}, "linux/arm64"},
        Normalization{"linux/arm64/8", {"linux", "arm64", "", ""}, "linux/arm64"},
        Normalization{"linux/aarch64/v8", {"linux", "arm64", "", ""}, "linux/arm64"},
        Normalization{"linux/arm64/v8.2", {"linux", "arm64", "v8.2", ""}, "linux/arm64/v8.2"},
        Normalization{"linux/arm64/v9", {"linux", "arm64", "v9", ""}, "linux/arm64/v9"},
        // 32-bit arm
        Normalization{"linux/arm", {"linux", "arm", "v7", ""}, "linux/arm/v7"},
        Normalization{"linux/armhf", {"linux", "arm", "v7", ""}, "linux/arm/v7"},
        Normalization{"linux/armel", {"linux", "arm", "v6", ""}, "linux/arm/v6"},
        Normalization{"linux/arm/7", {"linux", "arm", "v7", ""}, "linux/arm/v7"},
        Normalization{"linux/arm/v7", {"linux", "arm", "v7", ""}, "linux/arm/v7"},
        Normalization{"linux/arm/6", {"linux", "arm", "v6", ""}, "linux/arm/v6"},
        Normalization{"linux/arm/V6", {"linux", "arm", "v6", ""}, "linux/arm/v6"},
        Normalization{"linux/arm/5", {"linux", "arm", "v5", ""}, "linux/arm/v5"},
        Normalization{"linux/arm/8", {"linux", "arm", "v8", ""}, "linux/arm/v8"},
        Normalization{"linux/arm/v8", {"linux", "arm", "v8", ""}, "linux/arm/v8"},
        Normalization{"linux/arm/v4", {"linux", "arm", "v4", ""}, "linux/arm/v4"},
        // x86-32
        Normalization{"linux/i386", {"linux", "386", "", ""}, "linux/386"},
        Normalization{"linux/i386/whatever", {"linux", "386", "", ""}, "linux/386"},
        Normalization{"linux/386", {"linux", "386", "", ""}, "linux/386"},
        // kept as written (lowercased)
        Normalization{"linux/ppc64le", {"linux", "ppc64le", "", ""}, "linux/ppc64le"},
        Normalization{"linux/s390x", {"linux", "s390x", "", ""}, "linux/s390x"},
        Normalization{"linux/riscv64", {"linux", "riscv64", "", ""}, "linux/riscv64"},
        Normalization{"linux/loong64", {"linux", "loong64", "", ""}, "linux/loong64"},
        Normalization{"linux/mips64le", {"linux", "mips64le", "", ""}, "linux/mips64le"},
        Normalization{"unknown/unknown", {"unknown", "unknown", "", ""}, "unknown/unknown"},
        Normalization{"linux/my_arch.1", {"linux", "my_arch.1", "", ""}, "linux/my_arch.1"},
        // other operating systems
        Normalization{"windows/amd64", {"windows", "amd64", "", ""}, "windows/amd64"},
        Normalization{"Windows/AMD64", {"windows", "amd64", "", ""}, "windows/amd64"},
        Normalization{
            "windows(10.0.17763)/amd64", {"windows", "amd64", "", "10.0.17763"}, "windows/amd64"},
        Normalization{"windows()/amd64", {"windows", "amd64", "", ""}, "windows/amd64"},
        Normalization{"macos/arm64", {"darwin", "arm64", "", ""}, "darwin/arm64"},
        Normalization{"macOS/arm64", {"darwin", "arm64", "", ""}, "darwin/arm64"},
        Normalization{"darwin/amd64", {"darwin", "amd64", "", ""}, "darwin/amd64"},
        Normalization{"freebsd/amd64", {"freebsd", "amd64", "", ""}, "freebsd/amd64"},
        // an architecture alone is a Linux one, wherever archfit runs
        Normalization{"amd64", {"linux", "amd64", "", ""}, "linux/amd64"},
        Normalization{"x86_64", {"linux", "amd64", "", ""}, "linux/amd64"},
        Normalization{"arm64", {"linux", "arm64", "", ""}, "linux/arm64"},
        Normalization{"Aarch64", {"linux", "arm64", "", ""}, "linux/arm64"},
        Normalization{"arm", {"linux", "arm", "v7", ""}, "linux/arm/v7"},
        Normalization{"armhf", {"linux", "arm", "v7", ""}, "linux/arm/v7"},
        Normalization{"armel", {"linux", "arm", "v6", ""}, "linux/arm/v6"},
        Normalization{"i386", {"linux", "386", "", ""}, "linux/386"},
        Normalization{"s390x", {"linux", "s390x", "", ""}, "linux/s390x"},
        Normalization{"ppc64le", {"linux", "ppc64le", "", ""}, "linux/ppc64le"},
        Normalization{"riscv64", {"linux", "riscv64", "", ""}, "linux/riscv64"}),
    [](const auto& test) { return param_name(test.param.input, test.index); });

struct BadPlatform {
  std::string input;
  std::string message;  // the whole message
};

void PrintTo(const BadPlatform& c, std::ostream* os) {
  *os << c.input;
}

class PlatformParseBad : public ::testing::TestWithParam<BadPlatform> {};

TEST_P(PlatformParseBad, QuotesInputAndNamesRule) {
  const BadPlatform& c = GetParam();
  std::string why;
  EXPECT_FALSE(Platform::try_parse(c.input, &why).has_value());
  EXPECT_EQ(why, c.message);
  try {
    Platform::parse(c.input);
    ADD_FAILURE() << "parse accepted " << c.input;
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Input);
    EXPECT_EQ(e.message(), c.message);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Rows, PlatformParseBad,
    ::testing::Values(
        BadPlatform{"", "invalid platform \"\": platform is empty"},
        BadPlatform{"linux/", "invalid platform \"linux/\": architecture is empty"},
        BadPlatform{"/amd64", "invalid platform \"/amd64\": os is empty"},
        BadPlatform{"/linux/arm", "invalid platform \"/linux/arm\": os is empty"},
        BadPlatform{"linux/arm/", "invalid platform \"linux/arm/\": variant is empty"},
        BadPlatform{"linux//v7", "invalid platform \"linux//v7\": architecture is empty"},
        BadPlatform{"linux/arm/v7/extra",
                    "invalid platform \"linux/arm/v7/extra\": too many '/'-separated parts; "
                    "expected os/arch[/variant]"},
        BadPlatform{"linux /amd64",
                    "invalid platform \"linux /amd64\": os \"linux \" may contain only letters, "
                    "digits, '_' and '-'"},
        BadPlatform{"linux/&arm",
                    "invalid platform \"linux/&arm\": architecture \"&arm\" may contain only "
                    "letters, digits, '_', '.' and '-'"},
        BadPlatform{"linux/arm/v7!",
                    "invalid platform \"linux/arm/v7!\": variant \"v7!\" may contain only "
                    "letters, digits, '_', '.' and '-'"},
        BadPlatform{"lin.ux/amd64",
                    "invalid platform \"lin.ux/amd64\": os \"lin.ux\" may contain only letters, "
                    "digits, '_' and '-'"},
        BadPlatform{"linux/*", "invalid platform \"linux/*\": wildcards are not supported"},
        BadPlatform{"*", "invalid platform \"*\": wildcards are not supported"},
        BadPlatform{"linux",
                    "invalid platform \"linux\": an os alone does not say which architecture; "
                    "write os/arch, e.g. linux/amd64"},
        BadPlatform{"Windows",
                    "invalid platform \"Windows\": an os alone does not say which architecture; "
                    "write os/arch, e.g. linux/amd64"},
        BadPlatform{"macOS",
                    "invalid platform \"macOS\": an os alone does not say which architecture; "
                    "write os/arch, e.g. linux/amd64"},
        BadPlatform{"windows(10.0.17763)",
                    "invalid platform \"windows(10.0.17763)\": an os alone does not say which "
                    "architecture; write os/arch, e.g. linux/amd64"},
        BadPlatform{"amd46",
                    "invalid platform \"amd46\": unknown architecture \"amd46\"; write os/arch "
                    "(e.g. linux/amd46) to name one that is not in Go's list"},
        BadPlatform{"lin ux",
                    "invalid platform \"lin ux\": architecture \"lin ux\" may contain only "
                    "letters, digits, '_', '.' and '-'"},
        BadPlatform{"windows(10.0+win32k)/amd64",
                    "invalid platform \"windows(10.0+win32k)/amd64\": os features ('+' in the "
                    "parentheses) are not supported"},
        BadPlatform{"windows(10.0/amd64",
                    "invalid platform \"windows(10.0/amd64\": os \"windows(10.0\" has '(' "
                    "without a closing ')'"},
        BadPlatform{"windows(10 0)/amd64",
                    "invalid platform \"windows(10 0)/amd64\": os version \"10 0\" may contain "
                    "only letters, digits, '_', '.' and '-'"},
        BadPlatform{" linux/amd64",
                    "invalid platform \" linux/amd64\": os \" linux\" may contain only letters, "
                    "digits, '_' and '-'"}),
    [](const auto& test) { return param_name(test.param.input, test.index); });

TEST(Platform, FromPartsNormalizesAndValidates) {
  EXPECT_EQ(Platform::from_parts("linux", "aarch64", "v8").str(), "linux/arm64");
  EXPECT_EQ(Platform::from_parts("Linux", "armhf").str(), "linux/arm/v7");
  EXPECT_EQ(Platform::from_parts("linux", "arm", "7").str(), "linux/arm/v7");
  Platform windows = Platform::from_parts("windows", "amd64", "", "10.0.20348.2227");
  EXPECT_EQ(windows.os_version, "10.0.20348.2227");
  EXPECT_EQ(windows.str(), "windows/amd64");

  try {
    Platform::from_parts("", "amd64");
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_EQ(e.message(), "invalid platform \"/amd64\": os is empty");
  }
  try {
    Platform::from_parts("linux", "", "v7");
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_EQ(e.message(), "invalid platform \"linux//v7\": architecture is empty");
  }
  EXPECT_THROW(Platform::from_parts("linux", "arm64", "v8/x"), Error);
  EXPECT_THROW(Platform::from_parts("windows(1)", "amd64"), Error);
}

TEST(Platform, NormalizedLeavesInputAlone) {
  Platform raw{"MacOS", "x86_64", "v1", ""};
  Platform n = raw.normalized();
  EXPECT_EQ(raw.os, "MacOS");
  EXPECT_EQ(n, (Platform{"darwin", "amd64", "", ""}));
  EXPECT_EQ(raw.str(), "darwin/amd64") << "str() formats the normalized form";
}

TEST(Platform, NormalizeFunctions) {
  EXPECT_EQ(normalize_os("MACOS"), "darwin");
  EXPECT_EQ(normalize_os("Linux"), "linux");
  using Pair = std::pair<std::string, std::string>;
  EXPECT_EQ(normalize_architecture("aarch64", "8"), (Pair{"arm64", ""}));
  EXPECT_EQ(normalize_architecture("arm64", "v8.1"), (Pair{"arm64", "v8.1"}));
  EXPECT_EQ(normalize_architecture("arm", ""), (Pair{"arm", "v7"}));
  EXPECT_EQ(normalize_architecture("arm", "v6"), (Pair{"arm", "v6"}));
  EXPECT_EQ(normalize_architecture("armel", "v7"), (Pair{"arm", "v6"}));
  EXPECT_EQ(normalize_architecture("i386", "v1"), (Pair{"386", ""}));
  EXPECT_EQ(normalize_architecture("x86-64", "v2"), (Pair{"amd64", "v2"}));
  EXPECT_EQ(normalize_architecture("PPC64LE", "Power9"), (Pair{"ppc64le", "power9"}));
}

TEST(Platform, KnownNames) {
  EXPECT_TRUE(Platform::parse("linux/amd64").is_known());
  EXPECT_TRUE(Platform::parse("windows/arm64").is_known());
  EXPECT_TRUE((Platform{"Linux", "aarch64", "", ""}).is_known());
  EXPECT_FALSE(Platform::parse("unknown/unknown").is_known());
  EXPECT_FALSE(Platform::parse("linux/amd46").is_known());
  EXPECT_FALSE(Platform::parse("plan10/amd64").is_known());
  EXPECT_TRUE(is_known_os("plan9"));
  EXPECT_TRUE(is_known_architecture("riscv64"));
  EXPECT_FALSE(is_known_architecture("aarch64")) << "lists hold normalized names";
}

TEST(Platform, OrdersByOsArchitectureVariant) {
  EXPECT_LT(Platform::parse("linux/amd64"), Platform::parse("linux/arm/v7"));
  EXPECT_LT(Platform::parse("linux/arm/v6"), Platform::parse("linux/arm/v7"));
  EXPECT_LT(Platform::parse("linux/arm/v7"), Platform::parse("linux/arm64"));
  EXPECT_LT(Platform::parse("linux/s390x"), Platform::parse("windows/amd64"));
  EXPECT_EQ(Platform::parse("linux/aarch64"), Platform::parse("arm64"));
}

}  // namespace
}  // namespace archfit::image
