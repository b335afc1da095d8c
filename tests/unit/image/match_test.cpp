#include <ostream>
#include <string>

#include <gtest/gtest.h>

#include <archfit/image/match.hpp>

#include "support/param_name.hpp"

namespace archfit::image {
namespace {

using archfit::testing::param_name;

// One row: does an image built for `image` run on a node that is `host`?
struct MatchCase {
  std::string host;
  std::string image;
  bool same_architecture;  // MatchPolicy::SameArchitecture (the default)
  bool containerd;         // MatchPolicy::Containerd (platforms.Only)
};

// Failures print the row rather than its bytes.
void PrintTo(const MatchCase& c, std::ostream* os) {
  *os << c.image << " on " << c.host;
}

class PlatformMatch : public ::testing::TestWithParam<MatchCase> {};

TEST_P(PlatformMatch, BothPolicies) {
  const MatchCase& c = GetParam();
  Platform host = Platform::parse(c.host);
  Platform image = Platform::parse(c.image);
  EXPECT_EQ(can_run_on(image, host), c.same_architecture) << c.image << " on " << c.host;
  EXPECT_EQ(can_run_on(image, host, MatchPolicy::SameArchitecture), c.same_architecture);
  EXPECT_EQ(can_run_on(image, host, MatchPolicy::Containerd), c.containerd)
      << c.image << " on " << c.host << " (containerd)";
}

INSTANTIATE_TEST_SUITE_P(
    Rows, PlatformMatch,
    ::testing::Values(
        // amd64 hosts: lower microarchitecture levels, and 386 only for containerd
        MatchCase{"linux/amd64", "linux/amd64", true, true},
        MatchCase{"linux/amd64", "linux/x86_64", true, true},
        MatchCase{"linux/amd64", "linux/amd64/v1", true, true},
        MatchCase{"linux/amd64", "linux/386", false, true},
        MatchCase{"linux/amd64", "linux/amd64/v2", false, false},
        MatchCase{"linux/amd64", "linux/arm/v7", false, false},
        MatchCase{"linux/amd64", "linux/arm64", false, false},
        MatchCase{"linux/amd64", "windows/amd64", false, false},
        MatchCase{"linux/amd64", "darwin/amd64", false, false},
        MatchCase{"linux/amd64/v2", "linux/amd64", true, true},
        MatchCase{"linux/amd64/v2", "linux/amd64/v2", true, true},
        MatchCase{"linux/amd64/v2", "linux/386", false, true},
        MatchCase{"linux/amd64/v2", "linux/amd64/v3", false, false},
        MatchCase{"linux/amd64/v3", "linux/amd64/v2", true, true},
        MatchCase{"linux/amd64/v4", "linux/amd64/v3", true, true},
        MatchCase{"linux/386", "linux/386", true, true},
        MatchCase{"linux/386", "linux/amd64", false, false},
        // 32-bit arm hosts run their own and lower variants, down to v5
        MatchCase{"linux/arm/v8", "linux/arm/v8", true, true},
        MatchCase{"linux/arm/v8", "linux/arm", true, true},
        MatchCase{"linux/arm/v8", "linux/arm/v6", true, true},
        MatchCase{"linux/arm/v8", "linux/arm/v5", true, true},
        MatchCase{"linux/arm/v8", "linux/arm/v4", false, false},
        MatchCase{"linux/arm/v8", "linux/arm64", false, false},
        MatchCase{"linux/arm", "linux/arm/v7", true, true},
        MatchCase{"linux/arm", "linux/armhf", true, true},
        MatchCase{"linux/arm", "linux/armel", true, true},
        MatchCase{"linux/arm/v7", "linux/arm/v5", true, true},
        MatchCase{"linux/arm/v7", "linux/arm/v8", false, false},
        MatchCase{"linux/arm/v7", "linux/arm/v4", false, false},
        MatchCase{"linux/arm/v7", "linux/arm64", false, false},
        MatchCase{"linux/arm/v6", "linux/arm/v5", true, true},
        MatchCase{"linux/arm/v6", "linux/arm", false, false},
        MatchCase{"linux/arm/v5", "linux/arm/v5", true, true},
        MatchCase{"linux/arm/v5", "linux/arm/v6", false, false},
        MatchCase{"linux/arm/v4", "linux/arm/v4", true, true},
        MatchCase{"linux/arm/v4", "linux/arm/v5", false, false},
        // arm64 hosts: arm64 levels; 32-bit arm only for containerd
        MatchCase{"linux/arm64", "linux/arm64", true, true},
        MatchCase{"linux/arm64", "linux/aarch64", true, true},
        MatchCase{"linux/arm64", "linux/arm64/v8", true, true},
        MatchCase{"linux/arm64", "linux/arm64/v8.0", true, true},
        MatchCase{"linux/arm64", "linux/arm64/v8.1", false, false},
        MatchCase{"linux/arm64", "linux/arm64/v9", false, false},
        MatchCase{"linux/arm64", "linux/arm", false, true},
        MatchCase{"linux/arm64", "linux/arm/v8", false, true},
        MatchCase{"linux/arm64", "linux/arm/v6", false, true},
        MatchCase{"linux/arm64", "linux/arm/v5", false, true},
        MatchCase{"linux/arm64", "linux/arm/v4", false, false},
        MatchCase{"linux/arm64", "linux/arm/v9", false, false},
        MatchCase{"linux/arm64", "linux/amd64", false, false},
        MatchCase{"linux/arm64", "windows/arm64", false, false},
        MatchCase{"linux/arm64/v8.1", "linux/arm64", true, true},
        MatchCase{"linux/arm64/v8.1", "linux/arm64/v8.1", true, true},
        MatchCase{"linux/arm64/v8.1", "linux/arm64/v8.2", false, false},
        MatchCase{"linux/arm64/v8.1", "linux/arm64/v9", false, false},
        MatchCase{"linux/arm64/v8.1", "linux/arm/v7", false, true},
        MatchCase{"linux/arm64/v8.10", "linux/arm64/v8.9", true, true},
        MatchCase{"linux/arm64/v9", "linux/arm64", true, true},
        MatchCase{"linux/arm64/v9", "linux/arm64/v8.5", true, true},
        MatchCase{"linux/arm64/v9", "linux/arm64/v8.6", false, false},
        MatchCase{"linux/arm64/v9", "linux/arm64/v9.0", true, true},
        MatchCase{"linux/arm64/v9", "linux/arm64/v9.1", false, false},
        MatchCase{"linux/arm64/v9", "linux/arm/v8", false, true},
        MatchCase{"linux/arm64/v9", "linux/arm/v4", false, false},
        MatchCase{"linux/arm64/v9.2", "linux/arm64/v9.1", true, true},
        MatchCase{"linux/arm64/v9.2", "linux/arm64/v8.7", true, true},
        MatchCase{"linux/arm64/v9.2", "linux/arm64/v8.8", false, false},
        MatchCase{"linux/arm64/v9.2", "linux/arm64/v9.3", false, false},
        // architectures without levels match their exact variant only
        MatchCase{"linux/ppc64le", "linux/ppc64le", true, true},
        MatchCase{"linux/ppc64le", "linux/ppc64le/power9", false, false},
        MatchCase{"linux/s390x", "linux/s390x", true, true},
        MatchCase{"linux/riscv64", "linux/riscv64", true, true},
        MatchCase{"linux/riscv64", "linux/amd64", false, false},
        MatchCase{"linux/amd64", "unknown/unknown", false, false},
        // unreadable levels match only themselves
        MatchCase{"linux/arm/vx", "linux/arm/vx", true, true},
        MatchCase{"linux/arm/vx", "linux/arm/v5", false, false},
        MatchCase{"linux/arm64/v8.x", "linux/arm64", false, false},
        // Windows: builds matter when both sides name one
        MatchCase{"windows/amd64", "windows/amd64", true, true},
        MatchCase{"windows/amd64", "windows(10.0.17763)/amd64", true, true},
        MatchCase{"windows(10.0.17763)/amd64", "windows/amd64", true, true},
        MatchCase{"windows(10.0.17763)/amd64", "windows(10.0.17763)/amd64", true, true},
        MatchCase{"windows(10.0.17763)/amd64", "windows(10.0.17763.5576)/amd64", true, true},
        MatchCase{"windows(10.0.17763)/amd64", "windows(10.0.20348)/amd64", false, false},
        MatchCase{"windows(10.0.20348)/amd64", "windows(10.0.17763)/amd64", false, false},
        MatchCase{"windows(10.0.20348)/amd64", "windows(10.0.20348.2227)/amd64", true, true},
        MatchCase{"windows(10.0.26100)/amd64", "windows(10.0.20348)/amd64", true, true},
        MatchCase{"windows(10.0.26100)/amd64", "windows(10.0.26100)/amd64", true, true},
        MatchCase{"windows(10.0.26100)/amd64", "windows(10.0.26200)/amd64", false, false},
        MatchCase{"windows(10.0.26100)/amd64", "windows(10.0.17763)/amd64", false, false},
        MatchCase{"windows(10.0.26100)/amd64", "windows(6.3.26100)/amd64", false, false},
        MatchCase{"windows(10.0.26100)/amd64", "windows(junk)/amd64", false, false},
        MatchCase{"windows(junk)/amd64", "windows(10.0.17763)/amd64", true, true},
        MatchCase{"windows(10.0.17763)/amd64", "windows(10.0.17763)/arm64", false, false},
        MatchCase{"windows/amd64", "windows/386", false, true}),
    [](const auto& test) {
      return param_name(test.param.image + "_on_" + test.param.host, test.index);
    });

TEST(PlatformMatch, NormalizesBothSidesFirst) {
  Platform image{"Linux", "aarch64", "", ""};
  Platform host{"linux", "arm64", "v8", ""};
  EXPECT_TRUE(can_run_on(image, host));
  EXPECT_TRUE(can_run_on(Platform{"linux", "armhf", "", ""}, Platform{"linux", "arm", "", ""}));
  EXPECT_TRUE(
      can_run_on(Platform{"linux", "x86_64", "v1", ""}, Platform{"LINUX", "amd64", "", ""}));
  EXPECT_FALSE(can_run_on(Platform{"macos", "arm64", "", ""}, Platform{"linux", "arm64", "", ""}));
}

}  // namespace
}  // namespace archfit::image
