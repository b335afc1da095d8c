#include <gtest/gtest.h>

#include <archfit/base/error.hpp>
#include <archfit/base/splices.hpp>

namespace archfit {
namespace {

TEST(Splices, NoReplacementIsTheOriginal) {
  Splices s;
  EXPECT_TRUE(s.empty());
  EXPECT_EQ(s.apply("a: 1\n"), "a: 1\n");
  ASSERT_EQ(s.parts("a: 1\n").size(), 1u);
}

TEST(Splices, ReplacementsAtTheEdgesAndInBetween) {
  const std::string original = "---\na: 1\n---\nb: 2\n---\nc: 3\n";
  Splices s;
  s.replace(0, 9, "---\na: 10\n");
  s.replace(18, 9, "---\nc: 30\n");
  EXPECT_FALSE(s.empty());
  EXPECT_EQ(s.apply(original), "---\na: 10\n---\nb: 2\n---\nc: 30\n");
  std::vector<std::string_view> parts = s.parts(original);
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(parts[1], "---\nb: 2\n");
  // The unchanged piece is a view of the original, not a copy.
  EXPECT_EQ(parts[1].data(), original.data() + 9);
}

TEST(Splices, AnEmptyReplacementRemovesTheRange) {
  Splices s;
  s.replace(2, 3, "");
  EXPECT_EQ(s.apply("ab123cd"), "abcd");
  EXPECT_EQ(s.parts("ab123cd").size(), 2u);
}

TEST(Splices, OverlappingOrOutOfRangeReplacementsAreRefused) {
  Splices s;
  s.replace(4, 4, "x");
  EXPECT_THROW(s.replace(6, 1, "y"), Error);
  EXPECT_THROW(s.replace(1, 1, "y"), Error);
  EXPECT_THROW(s.apply("short"), Error);
}

}  // namespace
}  // namespace archfit
