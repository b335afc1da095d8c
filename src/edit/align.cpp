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
  std::vector<std::pair<std::size_t, std::size_t>> matches;
  if (n * m <= kMaxComparisons) {
    // lcs[i][j]: longest common subsequence of existing[i..] and wanted[j..].
    std::vector<std::vector<std::uint32_t>> lcs(n + 1, std::vector<std::uint32_t>(m + 1, 0));
    std::vector<std::vector<bool>> same(n, std::vector<bool>(m, false));
    for (std::size_t i = n; i-- > 0;) {
      for (std::size_t j = m; j-- > 0;) {
        same[i][j] = equal(i, j);
        lcs[i][j] = same[i][j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
      }
    }
    for (std::size_t i = 0, j = 0; i < n && j < m;) {
      if (same[i][j] && lcs[i][j] == lcs[i + 1][j + 1] + 1) {
        matches.emplace_back(i++, j++);
      } else if (lcs[i + 1][j] >= lcs[i][j + 1]) {
        ++i;
      } else {
        ++j;
      }
    }
  }
  std::size_t i = 0;
  std::size_t j = 0;
  for (auto [mi, mj] : matches) {
    pair_gap(i, mi, j, mj, out);
    out.source[mj] = mi;
    out.equal[mj] = true;
    i = mi + 1;
    j = mj + 1;
  }
  pair_gap(i, n, j, m, out);
  return out;
}

}  // namespace archfit::edit::detail
