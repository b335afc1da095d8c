// Did-you-mean: edit distances and which candidate is close enough.
#include <gtest/gtest.h>

#include <archfit/config/suggest.hpp>

namespace archfit::config {
namespace {

TEST(EditDistance, OptimalStringAlignment) {
  EXPECT_EQ(edit_distance("", ""), 0u);
  EXPECT_EQ(edit_distance("abc", ""), 3u);
  EXPECT_EQ(edit_distance("", "abc"), 3u);
  EXPECT_EQ(edit_distance("mode", "mode"), 0u);
  EXPECT_EQ(edit_distance("Mode", "mode"), 0u);    // case is ignored
  EXPECT_EQ(edit_distance("amd46", "amd64"), 1u);  // a transposition is one edit
  EXPECT_EQ(edit_distance("affinty", "affinity"), 1u);
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
  EXPECT_EQ(edit_distance("ca", "abc"), 3u);  // OSA, not Damerau: no edit of a transposed pair
}

struct Suggestion {
  const char* input;
  std::vector<std::string_view> candidates;
  const char* expected;
};

class Closest : public ::testing::TestWithParam<Suggestion> {};

TEST_P(Closest, PicksAPlausibleTypoOrNothing) {
  EXPECT_EQ(closest(GetParam().input, GetParam().candidates), GetParam().expected);
}

const std::vector<std::string_view> kModes = {"affinity", "nodeSelector", "preferred",
                                              "tolerationsOnly"};

INSTANTIATE_TEST_SUITE_P(
    Table, Closest,
    ::testing::Values(
        Suggestion{"affinty", kModes, "affinity"},
        Suggestion{"NodeSelector", kModes, "nodeSelector"},
        Suggestion{"prefered", kModes, "preferred"},
        Suggestion{"tolerations", kModes, "tolerationsOnly"},  // a prefix
        Suggestion{"zone", kModes, ""},
        Suggestion{"x", {"s", "m"}, "s"},  // one edit always allowed
        Suggestion{"ab", {"xy"}, ""}, Suggestion{"warning", {"fail", "warn", "ignore"}, "warn"},
        Suggestion{"clusterPlatform", {"clusterPlatforms", "architectures"}, "clusterPlatforms"},
        Suggestion{"arm46", {"amd64", "arm64", "arm"}, "arm64"},
        Suggestion{"mode", {"mode"}, ""}),  // an exact match needs no suggestion
    [](const ::testing::TestParamInfo<Suggestion>& test) {
      return "Case" + std::to_string(test.index);
    });

TEST(DidYouMean, Wording) {
  EXPECT_EQ(did_you_mean("affinty", kModes), " (did you mean \"affinity\"?)");
  EXPECT_EQ(did_you_mean("zzz", kModes), "");
  EXPECT_EQ(join({"a", "b", "c"}), "a, b, c");
  EXPECT_EQ(join({}), "");
}

}  // namespace
}  // namespace archfit::config
