#include "edit/align.hpp"

#include <algorithm>
#include <cstdint>

namespace archfit::edit::detail {

namespace {

// Beyond this many comparisons the sequences are paired by position only:
// placement fields are short, and a huge list is not worth quadratic time.
constexpr std::size_t kMaxComparisons = 1u << 18;

// Pairs existing[a, b) with wanted[c, d) by position.
void pair_gap(std::size_t a, std::size_t b, std::size_t c, std::size_t d, Alignment& out) {
  for (; a < b && c < d; ++a, ++c)
    out.source[c] = a;
  for (; a < b; ++a)
    out.removed.push_back(a);
}

}  // namespace

Alignment align(std::size_t n, std::size_t m,
                const std::function<bool(std::size_t, std::size_t)>& equal) {
  Alignment out;
  out.source.assign(m, Alignment::kNew);
  out.equal.assign(m, false);
  if (n * m > kMaxComparisons) {
    pair_gap(0, n, 0, m, out);
    return out;
  }
  // best[i][j]: the best pairing of existing[i..] with wanted[j..]. First as
  // many equal items as there can be (a longest common subsequence); among
  // those, as many items edited in place as there can be, so that a tie
  // never takes out the user's items to write them anew.
  constexpr std::uint64_t kEqual = std::uint64_t{1} << 32;
  constexpr std::uint64_t kInPlace = 1;
  std::vector<std::vector<std::uint64_t>> best(n + 1, std::vector<std::uint64_t>(m + 1, 0));
  std::vector<std::vector<bool>> same(n, std::vector<bool>(m, false));
  for (std::size_t i = n; i-- > 0;) {
    for (std::size_t j = m; j-- > 0;) {
      same[i][j] = equal(i, j);
      std::uint64_t pair = (same[i][j] ? kEqual : kInPlace) + best[i + 1][j + 1];
      best[i][j] = std::max({pair, best[i + 1][j], best[i][j + 1]});
    }
  }
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < n && j < m) {
    if (best[i][j] == (same[i][j] ? kEqual : kInPlace) + best[i + 1][j + 1]) {
      out.source[j] = i;
      out.equal[j] = same[i][j];
      ++i;
      ++j;
    } else if (best[i][j] == best[i + 1][j]) {
      out.removed.push_back(i++);
    } else {
      ++j;  // new
    }
  }
  for (; i < n; ++i)
    out.removed.push_back(i);
  return out;
}

}  // namespace archfit::edit::detail
