// Lining up a sequence as it is with the sequence it should become: which
// items stay, which change in place, which go and which are new. Items that
// are equal are matched first (a longest common subsequence), so that adding
// or taking out items never rewrites the ones around them; among the ways to
// do that, the one that edits the most of the rest in place (an item is
// never taken out and written anew when it can be changed where it is).
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

namespace archfit::edit::detail {

struct Alignment {
  static constexpr std::size_t kNew = static_cast<std::size_t>(-1);
  // For each wanted item: the existing item it is (or is edited from), or kNew.
  std::vector<std::size_t> source;
  // Whether that existing item is already equal to it.
  std::vector<bool> equal;
  // Existing items that go, ascending.
  std::vector<std::size_t> removed;
};

// `equal(i, j)`: existing item i equals wanted item j.
Alignment align(std::size_t existing, std::size_t wanted,
                const std::function<bool(std::size_t, std::size_t)>& equal);

}  // namespace archfit::edit::detail
