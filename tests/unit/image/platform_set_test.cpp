#include <ostream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <archfit/base/error.hpp>
#include <archfit/image/platform_set.hpp>

namespace archfit::image {
namespace {

using Strings = std::vector<std::string>;

struct CsvCase {
  const char* name;
  std::string csv;
  std::string formatted;
  std::size_t size;
};

// Failures print the row name rather than its bytes.
void PrintTo(const CsvCase& c, std::ostream* os) {
  *os << c.name;
}

class PlatformSetParse : public ::testing::TestWithParam<CsvCase> {};

TEST_P(PlatformSetParse, SortsDeduplicatesAndRoundTrips) {
  const CsvCase& c = GetParam();
  PlatformSet set = PlatformSet::parse(c.csv);
  EXPECT_EQ(set.str(), c.formatted);
  EXPECT_EQ(set.size(), c.size);
  EXPECT_EQ(set.empty(), c.size == 0);
  EXPECT_EQ(PlatformSet::parse(set.str()), set);
}

INSTANTIATE_TEST_SUITE_P(
    Rows, PlatformSetParse,
    ::testing::Values(CsvCase{"two", "linux/amd64,linux/arm64", "linux/amd64,linux/arm64", 2},
                      CsvCase{"sorted", "linux/s390x,linux/arm64,linux/amd64,linux/arm/v7",
                              "linux/amd64,linux/arm/v7,linux/arm64,linux/s390x", 4},
                      CsvCase{"spellings_merge",
                              "linux/aarch64, linux/arm64/v8 ,arm64,linux/x86_64",
                              "linux/amd64,linux/arm64", 2},
                      CsvCase{"arm_variants_stay_apart",
                              "linux/arm,linux/armhf,linux/armel,linux/arm/v5",
                              "linux/arm/v5,linux/arm/v6,linux/arm/v7", 3},
                      CsvCase{"windows_build_dropped",
                              "windows(10.0.17763)/amd64,windows(10.0.20348)/amd64,windows/amd64",
                              "windows/amd64", 1},
                      CsvCase{"os_before_arch", "windows/amd64,linux/arm64,darwin/arm64",
                              "darwin/arm64,linux/arm64,windows/amd64", 3},
                      CsvCase{"single", "linux/ppc64le", "linux/ppc64le", 1},
                      CsvCase{"blanks_around", " \tlinux/amd64 ", "linux/amd64", 1},
                      CsvCase{"empty", "", "", 0}, CsvCase{"blank", "  ", "", 0}),
    [](const auto& test) { return std::string(test.param.name); });

struct CsvError {
  const char* name;
  std::string csv;
  std::string message;
};

void PrintTo(const CsvError& c, std::ostream* os) {
  *os << c.name;
}

class PlatformSetParseBad : public ::testing::TestWithParam<CsvError> {};

TEST_P(PlatformSetParseBad, NamesTheEntry) {
  const CsvError& c = GetParam();
  try {
    PlatformSet::parse(c.csv);
    ADD_FAILURE() << "accepted " << c.csv;
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Input);
    EXPECT_EQ(e.message(), c.message);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Rows, PlatformSetParseBad,
    ::testing::Values(
        CsvError{"empty_entry", "linux/amd64,,linux/arm64",
                 "invalid platform list \"linux/amd64,,linux/arm64\": entry 2 is empty"},
        CsvError{"trailing_comma", "linux/amd64,",
                 "invalid platform list \"linux/amd64,\": entry 2 is empty"},
        CsvError{"leading_comma", ",linux/amd64",
                 "invalid platform list \",linux/amd64\": entry 1 is empty"},
        CsvError{"bad_entry", "linux/amd64,linux/",
                 "invalid platform \"linux/\": architecture is empty"},
        CsvError{"os_alone", "linux",
                 "invalid platform \"linux\": an os alone does not say which architecture; "
                 "write os/arch, e.g. linux/amd64"}),
    [](const auto& test) { return std::string(test.param.name); });

TEST(PlatformSet, FromVectorNormalizes) {
  PlatformSet set(std::vector<Platform>{{"Linux", "aarch64", "v8", ""},
                                        {"linux", "x86_64", "", ""},
                                        {"linux", "arm64", "", ""},
                                        {"windows", "amd64", "", "10.0.17763"}});
  EXPECT_EQ(set.str(), "linux/amd64,linux/arm64,windows/amd64");
  EXPECT_EQ(set, PlatformSet::parse("windows/amd64,linux/arm64,linux/amd64"));
  for (const Platform& p : set)
    EXPECT_TRUE(p.os_version.empty()) << p.str();
  EXPECT_EQ(PlatformSet(std::vector<Platform>{}), PlatformSet());
}

TEST(PlatformSet, InsertKeepsOrderAndReportsNewness) {
  PlatformSet set;
  EXPECT_TRUE(set.insert(Platform::parse("linux/arm64")));
  EXPECT_TRUE(set.insert(Platform::parse("linux/amd64")));
  EXPECT_FALSE(set.insert(Platform::parse("linux/aarch64")));
  EXPECT_FALSE(set.insert(Platform{"linux", "arm64", "v8", ""}));
  EXPECT_TRUE(set.insert(Platform{"linux", "armhf", "", ""}));
  EXPECT_EQ(set.str(), "linux/amd64,linux/arm/v7,linux/arm64");
  EXPECT_EQ(set.strs(), (Strings{"linux/amd64", "linux/arm/v7", "linux/arm64"}));
  Strings iterated;
  for (const Platform& p : set)
    iterated.push_back(p.str());
  EXPECT_EQ(iterated, set.strs());
}

TEST(PlatformSet, ContainsIsExactAfterNormalization) {
  PlatformSet set = PlatformSet::parse("linux/arm64,linux/arm/v7,windows/amd64");
  EXPECT_TRUE(set.contains(Platform::parse("linux/aarch64")));
  EXPECT_TRUE(set.contains(Platform{"linux", "arm64", "v8", ""}));
  EXPECT_TRUE(set.contains(Platform{"linux", "arm", "", ""}));
  EXPECT_TRUE(set.contains(Platform{"windows", "amd64", "", "10.0.17763"}));
  EXPECT_FALSE(set.contains(Platform::parse("linux/arm/v6")));
  EXPECT_FALSE(set.contains(Platform::parse("linux/amd64")));
  EXPECT_FALSE(PlatformSet().contains(Platform::parse("linux/amd64")));
}

TEST(PlatformSet, RunsOn) {
  PlatformSet image = PlatformSet::parse("linux/arm/v6,linux/386");
  EXPECT_TRUE(image.runs_on(Platform::parse("linux/arm")));
  EXPECT_TRUE(image.runs_on(Platform::parse("linux/386")));
  EXPECT_FALSE(image.runs_on(Platform::parse("linux/arm64")));
  EXPECT_FALSE(image.runs_on(Platform::parse("linux/amd64")));
  EXPECT_TRUE(image.runs_on(Platform::parse("linux/arm64"), MatchPolicy::Containerd));
  EXPECT_TRUE(image.runs_on(Platform::parse("linux/amd64"), MatchPolicy::Containerd));
  EXPECT_FALSE(PlatformSet().runs_on(Platform::parse("linux/amd64")));
}

// filter_runnable_on: which of the cluster's platforms can the image run on?
struct FilterCase {
  const char* name;
  std::string image;
  std::string hosts;
  std::string same_architecture;
  std::string containerd;
};

void PrintTo(const FilterCase& c, std::ostream* os) {
  *os << c.name;
}

class PlatformSetFilter : public ::testing::TestWithParam<FilterCase> {};

TEST_P(PlatformSetFilter, BothPolicies) {
  const FilterCase& c = GetParam();
  PlatformSet image = PlatformSet::parse(c.image);
  PlatformSet hosts = PlatformSet::parse(c.hosts);
  EXPECT_EQ(image.filter_runnable_on(hosts).str(), c.same_architecture);
  EXPECT_EQ(image.filter_runnable_on(hosts, MatchPolicy::Containerd).str(), c.containerd);
}

INSTANTIATE_TEST_SUITE_P(
    Rows, PlatformSetFilter,
    ::testing::Values(
        FilterCase{"multi_arch", "linux/amd64,linux/arm64,linux/arm/v7", "linux/amd64,linux/arm64",
                   "linux/amd64,linux/arm64", "linux/amd64,linux/arm64"},
        FilterCase{"amd64_only", "linux/amd64", "linux/amd64,linux/arm64", "linux/amd64",
                   "linux/amd64"},
        FilterCase{"arm64_v8_spelling", "linux/arm64/v8", "linux/amd64,linux/arm64", "linux/arm64",
                   "linux/arm64"},
        FilterCase{"arm32_only", "linux/arm/v7", "linux/amd64,linux/arm64", "", "linux/arm64"},
        FilterCase{"arm_v6_on_arm_hosts", "linux/arm/v6", "linux/arm/v7,linux/arm64",
                   "linux/arm/v7", "linux/arm/v7,linux/arm64"},
        FilterCase{"i386_only", "linux/386", "linux/amd64", "", "linux/amd64"},
        FilterCase{"amd64_v3_only", "linux/amd64/v3", "linux/amd64", "", ""},
        FilterCase{"amd64_levels", "linux/amd64,linux/amd64/v3", "linux/amd64", "linux/amd64",
                   "linux/amd64"},
        FilterCase{"mixed_os", "windows/amd64,linux/amd64", "linux/amd64,linux/arm64,windows/amd64",
                   "linux/amd64,windows/amd64", "linux/amd64,windows/amd64"},
        FilterCase{"no_overlap", "linux/ppc64le,linux/s390x", "linux/amd64,linux/arm64", "", ""},
        FilterCase{"attestation_ignored", "unknown/unknown,linux/amd64", "linux/amd64,linux/arm64",
                   "linux/amd64", "linux/amd64"},
        FilterCase{"empty_image", "", "linux/amd64,linux/arm64", "", ""},
        FilterCase{"empty_cluster", "linux/amd64", "", "", ""}),
    [](const auto& test) { return std::string(test.param.name); });

// How placement folds a pod template: start from the cluster, narrow by each image.
TEST(PlatformSet, FoldOverImagesOfATemplate) {
  PlatformSet cluster = PlatformSet::parse("linux/amd64,linux/arm64,linux/arm/v7");
  std::vector<PlatformSet> images = {
      PlatformSet::parse("linux/amd64,linux/arm64,linux/arm/v6"),
      PlatformSet::parse("linux/amd64,linux/arm64/v8,linux/arm/v7"),
      PlatformSet::parse("linux/amd64,linux/aarch64"),
  };
  PlatformSet usable = cluster;
  for (const PlatformSet& image : images)
    usable = image.filter_runnable_on(usable);
  EXPECT_EQ(usable.str(), "linux/amd64,linux/arm64");
  EXPECT_EQ(usable.archs(), (Strings{"amd64", "arm64"}));

  usable = PlatformSet::parse("linux/amd64").filter_runnable_on(usable);
  EXPECT_EQ(usable.str(), "linux/amd64");
  usable = PlatformSet::parse("linux/arm64").filter_runnable_on(usable);
  EXPECT_TRUE(usable.empty()) << "no common platform";
}

TEST(PlatformSet, Intersect) {
  PlatformSet a = PlatformSet::parse("linux/amd64,linux/arm64,linux/arm/v7");
  PlatformSet b = PlatformSet::parse("linux/arm64,linux/arm/v6,linux/amd64");
  EXPECT_EQ(a.intersect(b).str(), "linux/amd64,linux/arm64");
  EXPECT_EQ(b.intersect(a), a.intersect(b));
  EXPECT_EQ(PlatformSet::parse("linux/aarch64").intersect(PlatformSet::parse("linux/arm64/v8")),
            PlatformSet::parse("linux/arm64"));
  EXPECT_TRUE(a.intersect(PlatformSet()).empty());
  EXPECT_EQ(a.intersect(a), a);
}

TEST(PlatformSet, ArchsAndOses) {
  PlatformSet set = PlatformSet::parse(
      "linux/amd64,linux/arm/v6,linux/arm/v7,windows/amd64,linux/arm64,darwin/arm64");
  EXPECT_EQ(set.archs(), (Strings{"amd64", "arm", "arm64"}));
  EXPECT_EQ(set.oses(), (Strings{"darwin", "linux", "windows"}));
  EXPECT_TRUE(PlatformSet().archs().empty());
  EXPECT_TRUE(PlatformSet().oses().empty());
}

TEST(PlatformSet, Equality) {
  EXPECT_EQ(PlatformSet::parse("linux/arm64,linux/amd64"),
            PlatformSet::parse("linux/x86_64,linux/aarch64"));
  EXPECT_NE(PlatformSet::parse("linux/arm/v6"), PlatformSet::parse("linux/arm/v7"));
  EXPECT_NE(PlatformSet::parse("linux/amd64"), PlatformSet());
  EXPECT_EQ(PlatformSet().str(), "");
}

}  // namespace
}  // namespace archfit::image
