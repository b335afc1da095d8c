#include <algorithm>
#include <random>
#include <string>

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

// Replacements of a long text, made from strings that are gone at once, in
// parts taken into one Splices as a run takes each document's edits: texts
// of every size (empty, small, larger than a block, larger than a huge page)
// are kept as given through the growth of the list and of the blocks, a
// copy, a move, and a moved-from Splices used again.
TEST(Splices, KeepsItsTextsThroughGrowthCopiesAndMoves) {
  std::mt19937 rng(7);
  const std::size_t kParts = 3000;
  const std::size_t kPartSize = 40;
  std::string original;
  for (std::size_t i = 0; i < kParts * kPartSize; ++i)
    original += static_cast<char>('a' + i % 26);
  std::string expected;
  Splices all;
  for (std::size_t part = 0; part < kParts; ++part) {
    const std::size_t offset = part * kPartSize;
    Splices edits;
    std::size_t at = 0;
    for (std::size_t pos = 0; pos < kPartSize; pos += 10) {
      std::size_t size = rng() % 50;
      if (part == 1234 && pos == 0) size = (std::size_t{5} << 20) + 3;  // beyond a huge page
      if (part == 2000 && pos == 10) size = 100'000;                    // beyond a small block
      std::string text(size, static_cast<char>('A' + (part + pos) % 26));
      if (!text.empty()) text.back() = '\n';
      const std::size_t length = rng() % 4;
      expected += original.substr(offset + at, pos - at) + text;
      at = pos + length;
      edits.replace(pos, length, std::string(text));  // the string is gone after the call
    }
    expected += original.substr(offset + at, kPartSize - at);
    all.take(std::move(edits), offset);
    EXPECT_TRUE(edits.empty());
  }
  ASSERT_EQ(all.replacements().size(), kParts * 4);
  ASSERT_TRUE(all.gives(original, expected));

  Splices copy(all);
  Splices moved(std::move(all));
  // Both used again: neither writes where the other keeps a text.
  all.replace(0, 1, "!!!!");
  moved.replace(original.size(), 0, "tail\n");
  EXPECT_EQ(all.apply("ab"), "!!!!b");
  EXPECT_TRUE(moved.gives(original, expected + "tail\n"));
  EXPECT_TRUE(copy.gives(original, expected));
  Splices assigned;
  assigned.replace(0, 0, "old");
  assigned = copy;
  copy = Splices();
  EXPECT_TRUE(assigned.gives(original, expected));
  EXPECT_EQ(assigned.apply(original), expected);
}

// A whole document's new text is kept as it is, not copied (it would be
// held twice for a moment); copies and moves of the Splices give it whole.
TEST(Splices, KeepsALargeTextAsItIs) {
  std::string big(100'000, 'z');
  big.back() = '\n';
  const char* where = big.data();
  Splices s;
  s.keep(0, 1, "small\n");
  s.keep(2, 1, std::move(big));
  for (int i = 0; i < 100; ++i)
    s.keep(4 + 2 * i, 1, std::string(70'000, static_cast<char>('a' + i % 26)));
  EXPECT_EQ(s.replacements()[1].text.data(), where);
  const std::string original(300, '.');
  const std::string once = s.apply(original);
  Splices copy(s);
  Splices moved(std::move(s));
  EXPECT_EQ(moved.replacements()[1].text.data(), where);
  EXPECT_EQ(moved.apply(original), once);
  EXPECT_EQ(copy.apply(original), once);
  EXPECT_NE(copy.replacements()[1].text.data(), where);
  EXPECT_EQ(once.size(), 300 - 102 + 6 + 100'000 + 100 * 70'000);
  EXPECT_GE(moved.held_bytes(), 100'000u + 100 * 70'000);
}

// The blocks double as texts come: a Splices holds at most about twice what
// its texts need (a run keeps one for every file it changes), and a file of
// many edits ends up in blocks of a huge page.
TEST(Splices, HoldsLittleMoreThanItsTexts) {
  std::mt19937 rng(11);
  for (std::size_t total : {std::size_t{10}, std::size_t{5000}, std::size_t{150'000},
                            std::size_t{900'000}, std::size_t{3'000'000}, std::size_t{9'000'000}}) {
    Splices s;
    std::size_t kept = 0;
    std::size_t at = 0;
    while (kept < total) {
      const std::size_t size = std::min<std::size_t>(1 + rng() % 600, total - kept);
      s.replace(at, 1, std::string(size, 'x'));
      kept += size;
      at += 2;
    }
    EXPECT_LE(s.held_bytes(), 2 * total + 1024) << total;
    EXPECT_GE(s.held_bytes(), total) << total;
  }
}

}  // namespace
}  // namespace archfit
