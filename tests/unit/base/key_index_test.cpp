// The keyed hash and the index every large collection is looked up through.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <archfit/base/key_index.hpp>

namespace archfit {
namespace {

TEST(SipHash, MatchesThePublishedVectors) {
  // The key 00 01 .. 0f; SipHash-2-4 of the empty message and of 00 01 .. 0e
  // (the paper's appendix A).
  const std::uint64_t k0 = 0x0706050403020100ull;
  const std::uint64_t k1 = 0x0f0e0d0c0b0a0908ull;
  EXPECT_EQ(siphash(k0, k1, "", 2, 4), 0x726fdb47dd0e0e31ull);
  std::string fifteen;
  for (char c = 0; c < 15; ++c)
    fifteen.push_back(c);
  EXPECT_EQ(siphash(k0, k1, fifteen, 2, 4), 0xa129ca6149be45e5ull);
}

TEST(KeyedHash, IsStableWithinTheProcessAndTellsKeysApart) {
  EXPECT_EQ(keyed_hash("annotations"), keyed_hash(std::string("annotations")));
  EXPECT_NE(keyed_hash("a"), keyed_hash("b"));
  EXPECT_NE(keyed_hash(""), keyed_hash(std::string(1, '\0')));
}

TEST(KeyIndex, FindsEveryKeyItWasGiven) {
  std::vector<std::string> keys;
  KeyIndex index;
  auto key_at = [&keys](std::uint32_t i) { return std::string_view(keys[i]); };
  for (std::uint32_t i = 0; i < 5000; ++i) {
    keys.push_back("k" + std::to_string(i));
    EXPECT_EQ(index.put(keys.back(), i, key_at), KeyIndex::npos);
  }
  EXPECT_EQ(index.size(), 5000u);
  for (std::uint32_t i = 0; i < 5000; ++i)
    ASSERT_EQ(index.find(keys[i], key_at), i);
  EXPECT_EQ(index.find("k5000", key_at), KeyIndex::npos);
  EXPECT_EQ(index.find("", key_at), KeyIndex::npos);
  index.clear();
  EXPECT_TRUE(index.empty());
  EXPECT_EQ(index.find("k1", key_at), KeyIndex::npos);
}

TEST(KeyIndex, KeepsTheLaterPositionOfARepeatedKey) {
  std::vector<std::string> keys = {"a", "b", "a", "a"};
  KeyIndex index;
  auto key_at = [&keys](std::uint32_t i) { return std::string_view(keys[i]); };
  EXPECT_EQ(index.put("a", 0, key_at), KeyIndex::npos);
  EXPECT_EQ(index.put("b", 1, key_at), KeyIndex::npos);
  EXPECT_EQ(index.put("a", 2, key_at), 0u);
  EXPECT_EQ(index.find("a", key_at), 2u);
  // Given out of order, the later position still wins.
  EXPECT_EQ(index.put("a", 1, key_at), 1u);
  EXPECT_EQ(index.find("a", key_at), 2u);
  EXPECT_EQ(index.size(), 2u);
}

}  // namespace
}  // namespace archfit
