// Lining up a sequence with what it should become: equal items first, then
// as many of the rest edited in place as can be.
#include "edit/align.hpp"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace archfit::edit::detail {
namespace {

Alignment of(const std::vector<std::string>& existing, const std::vector<std::string>& wanted) {
  return align(existing.size(), wanted.size(),
               [&](std::size_t i, std::size_t j) { return existing[i] == wanted[j]; });
}

constexpr std::size_t kNew = Alignment::kNew;

TEST(Align, AddingAndTakingOutLeavesTheOthers) {
  Alignment a = of({"a", "b", "c"}, {"a", "x", "b", "c"});
  EXPECT_EQ(a.source, (std::vector<std::size_t>{0, kNew, 1, 2}));
  EXPECT_TRUE(a.removed.empty());
  Alignment b = of({"a", "b", "c"}, {"a", "c"});
  EXPECT_EQ(b.source, (std::vector<std::size_t>{0, 2}));
  EXPECT_EQ(b.removed, (std::vector<std::size_t>{1}));
}

// A wanted item equal to an existing one further on: matching those two
// would take out the items before it and write them anew; the same number of
// equal items is had by editing each in place.
TEST(Align, ATieEditsInPlaceRatherThanTakingOut) {
  Alignment a = of({"t0", "t1", "t2"}, {"t2", "t1'", "t2"});
  EXPECT_EQ(a.source, (std::vector<std::size_t>{0, 1, 2}));
  EXPECT_EQ(a.equal, (std::vector<bool>{false, false, true}));
  EXPECT_TRUE(a.removed.empty());
}

TEST(Align, WhatIsLeftIsPairedByPosition) {
  Alignment a = of({"a", "b"}, {"x", "y", "z"});
  EXPECT_EQ(a.source, (std::vector<std::size_t>{0, 1, kNew}));
  Alignment b = of({"a", "b", "c"}, {"x"});
  EXPECT_EQ(b.source, (std::vector<std::size_t>{0}));
  EXPECT_EQ(b.removed, (std::vector<std::size_t>{1, 2}));
}

}  // namespace
}  // namespace archfit::edit::detail
