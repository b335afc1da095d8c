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

// The edits of a part of a text, moved to where the part starts: the same as
// replacing those ranges of the whole text.
TEST(Splices, TakenEditsLandWhereTheirPartStarts) {
  const std::string whole = "---\na: 1\n---\nb: 2\n";
  Splices first;
  first.replace(4, 0, "z: 0\n");  // an insertion at the start of the first part's line 2
  Splices second;
  second.replace(7, 1, "20");  // "2" of "b: 2", in the part from byte 9
  second.replace(9, 0, "c: 3\n");
  Splices all;
  all.take(std::move(first), 0);
  all.take(std::move(second), 9);
  EXPECT_TRUE(second.empty());
  EXPECT_EQ(all.apply(whole), "---\nz: 0\na: 1\n---\nb: 20\nc: 3\n");
  Splices earlier;
  earlier.replace(0, 1, "x");
  EXPECT_THROW(all.take(std::move(earlier), 4), Error) << "before the last edit taken";
}

// gives() is apply() compared, without building the text.
TEST(Splices, GivesIsApplyCompared) {
  const std::string original = "abcdef";
  Splices s;
  s.replace(1, 2, "XY");
  s.replace(4, 0, "+");
  ASSERT_EQ(s.apply(original), "aXYd+ef");
  EXPECT_TRUE(s.gives(original, "aXYd+ef"));
  for (const char* other : {"aXYd+e", "aXYd+efg", "aXYdef", "", "bXYd+ef", "aXYd-ef"})
    EXPECT_FALSE(s.gives(original, other)) << other;
  EXPECT_TRUE(Splices().gives(original, original));
  EXPECT_FALSE(Splices().gives(original, "abcde"));
}

}  // namespace
}  // namespace archfit
