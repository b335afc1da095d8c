// contains() agrees with std::string_view::find on every text and needle:
// generated from a small alphabet so that near misses and matches are
// common, with the needle planted at each end and across every lane edge.
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <archfit/base/text.hpp>

namespace archfit {
namespace {

bool find_says(std::string_view text, std::string_view needle) {
  return text.find(needle) != std::string_view::npos;
}

std::string draw_text(std::mt19937& rng, std::string_view alphabet, std::size_t n) {
  std::uniform_int_distribution<std::size_t> pick(0, alphabet.size() - 1);
  std::string out(n, ' ');
  for (char& c : out)
    c = alphabet[pick(rng)];
  return out;
}

TEST(Contains, AgreesWithFindOnGeneratedTexts) {
  std::mt19937 rng(28);
  // NUL, 0xff and the bytes the scan prefers (capitals, '/') among common ones.
  const std::string alphabet = std::string("ab/K. \n", 7) + '\0' + '\xff';
  std::uniform_int_distribution<std::size_t> text_len(0, 90), needle_len(1, 20);
  for (int round = 0; round < 20000; ++round) {
    std::string text = draw_text(rng, alphabet, text_len(rng));
    std::string needle = draw_text(rng, alphabet, needle_len(rng));
    ASSERT_EQ(contains(text, needle), find_says(text, needle))
        << quoted(text) << " / " << quoted(needle);
  }
}

TEST(Contains, FindsTheNeedleAtEveryPlaceAndNotOneByteShort) {
  const std::string filler(70, 'e');
  using namespace std::string_view_literals;
  for (std::string_view needle :
       {"kQ"sv, "karpenter.sh/"sv, "archfit.io/split"sv, "PodDistributor"sv, "x\0y"sv}) {
    for (std::size_t at = 0; at + needle.size() <= filler.size(); ++at) {
      std::string text = filler;
      text.replace(at, needle.size(), needle);
      EXPECT_TRUE(contains(text, needle)) << needle << " at " << at;
      // The needle cut by the text's end is not there.
      EXPECT_FALSE(contains(std::string_view(text).substr(0, at + needle.size() - 1), needle))
          << needle << " at " << at;
      // Nor is it with its last byte changed.
      text[at + needle.size() - 1] = 'e';
      EXPECT_FALSE(contains(text, needle)) << needle << " at " << at;
    }
  }
}

// A text of many MiB is scanned in pieces of 1 MiB on several threads: a
// needle across any piece's edge is found, at the text's very start and
// end too, and one cut short or changed in its last byte is not.
TEST(Contains, FindsTheNeedleAcrossThePiecesOfALargeText) {
  constexpr std::size_t kMiB = std::size_t{1} << 20;
  std::string text(9 * kMiB + 123, 'e');
  const std::string_view needle = "PodDistributor";
  EXPECT_FALSE(contains(text, needle));
  std::vector<std::size_t> places = {0, text.size() - needle.size()};
  for (std::size_t edge = kMiB; edge < text.size(); edge += kMiB) {
    for (std::size_t back = 0; back <= needle.size(); ++back)
      places.push_back(edge - back);
  }
  for (std::size_t at : places) {
    text.replace(at, needle.size(), needle);
    EXPECT_TRUE(contains(text, needle)) << at;
    if (at + needle.size() == text.size()) {
      EXPECT_FALSE(contains(std::string_view(text).substr(0, text.size() - 1), needle)) << at;
    }
    text[at + needle.size() - 1] = 'e';
    EXPECT_FALSE(contains(text, needle)) << at;
    text.replace(at, needle.size(), needle.size(), 'e');
  }
}

TEST(Contains, EdgeCases) {
  EXPECT_TRUE(contains("", ""));
  EXPECT_TRUE(contains("abc", ""));
  EXPECT_FALSE(contains("", "a"));
  EXPECT_FALSE(contains("ab", "abc"));
  EXPECT_TRUE(contains("abc", "abc"));
  EXPECT_TRUE(contains("xyz", "z"));
  EXPECT_FALSE(contains("xyz", "q"));
}

}  // namespace
}  // namespace archfit
