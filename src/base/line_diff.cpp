#include "base/line_diff.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace archfit::diff {

namespace {

using Index = std::ptrdiff_t;

// The script of a[a0, a1) against b[b0, b1), emitted in order. Each level
// trims the common prefix and suffix, then splits at the middle of an optimal
// path (bisect), so the recursion is O(log D) deep and the only memory beyond
// the input is one pair of diagonal arrays, reused by every level.
class Script {
 public:
  Script(const std::vector<std::string_view>& a, const std::vector<std::string_view>& b,
         const std::function<void(Op, std::size_t)>& emit)
      : a_(a), b_(b), emit_(emit), hash_a_(hashes(a)), hash_b_(hashes(b)) {
    std::size_t diagonals = a.size() + b.size() + 4;
    forward_.resize(diagonals);
    reverse_.resize(diagonals);
  }

  void run(Index a0, Index a1, Index b0, Index b1) {
    while (a0 < a1 && b0 < b1 && same(a0, b0)) {
      emit_(Op::Keep, static_cast<std::size_t>(a0));
      ++a0, ++b0;
    }
    Index suffix = 0;
    while (a0 < a1 - suffix && b0 < b1 - suffix && same(a1 - 1 - suffix, b1 - 1 - suffix))
      ++suffix;
    a1 -= suffix;
    b1 -= suffix;
    if (a0 == a1 || b0 == b1) {
      replace(a0, a1, b0, b1);
    } else if (auto [x, y] = bisect(a0, a1, b0, b1);
               x < 0 || (x == a0 && y == b0) || (x == a1 && y == b1)) {
      replace(a0, a1, b0, b1);  // nothing in common
    } else {
      run(a0, x, b0, y);
      run(x, a1, y, b1);
    }
    for (Index k = 0; k < suffix; ++k)
      emit_(Op::Keep, static_cast<std::size_t>(a1 + k));
  }

 private:
  static std::vector<std::uint64_t> hashes(const std::vector<std::string_view>& lines) {
    std::vector<std::uint64_t> out;
    out.reserve(lines.size());
    for (std::string_view line : lines)
      out.push_back(std::hash<std::string_view>{}(line));
    return out;
  }

  bool same(Index i, Index j) const {
    auto ui = static_cast<std::size_t>(i), uj = static_cast<std::size_t>(j);
    return hash_a_[ui] == hash_b_[uj] && a_[ui] == b_[uj];
  }

  void replace(Index a0, Index a1, Index b0, Index b1) {
    for (Index i = a0; i < a1; ++i)
      emit_(Op::Delete, static_cast<std::size_t>(i));
    for (Index j = b0; j < b1; ++j)
      emit_(Op::Insert, static_cast<std::size_t>(j));
  }

  // Where the forward and the reverse search of Myers' algorithm first meet:
  // a point (x, y) on an optimal path with about half the edits on each side;
  // x < 0 when the sequences have nothing in common. Both sides are non-empty
  // and differ in their first and last lines.
  std::pair<Index, Index> bisect(Index a0, Index a1, Index b0, Index b1) {
    const Index n = a1 - a0, m = b1 - b0;
    const Index max_d = (n + m + 1) / 2;
    const Index offset = max_d + 1;
    const Index length = 2 * max_d + 3;
    std::fill(forward_.begin(), forward_.begin() + length, -1);
    std::fill(reverse_.begin(), reverse_.begin() + length, -1);
    auto at = [](std::vector<Index>& v, Index k) -> Index& {
      return v[static_cast<std::size_t>(k)];
    };
    at(forward_, offset + 1) = 0;
    at(reverse_, offset + 1) = 0;
    const Index delta = n - m;
    // With an odd delta the forward search finds the meeting point, with an
    // even one the reverse search does.
    const bool odd = (delta % 2) != 0;
    Index k1_start = 0, k1_end = 0, k2_start = 0, k2_end = 0;
    for (Index d = 0; d < max_d; ++d) {
      for (Index k1 = -d + k1_start; k1 <= d - k1_end; k1 += 2) {
        const Index k1_at = offset + k1;
        Index x1 = (k1 == -d || (k1 != d && at(forward_, k1_at - 1) < at(forward_, k1_at + 1)))
                       ? at(forward_, k1_at + 1)
                       : at(forward_, k1_at - 1) + 1;
        Index y1 = x1 - k1;
        while (x1 < n && y1 < m && same(a0 + x1, b0 + y1))
          ++x1, ++y1;
        at(forward_, k1_at) = x1;
        if (x1 > n) {
          k1_end += 2;  // off the right edge
        } else if (y1 > m) {
          k1_start += 2;  // off the bottom edge
        } else if (odd) {
          const Index k2_at = offset + delta - k1;
          if (k2_at >= 0 && k2_at < length && at(reverse_, k2_at) != -1 &&
              x1 >= n - at(reverse_, k2_at)) {
            return {a0 + x1, b0 + y1};
          }
        }
      }
      for (Index k2 = -d + k2_start; k2 <= d - k2_end; k2 += 2) {
        const Index k2_at = offset + k2;
        Index x2 = (k2 == -d || (k2 != d && at(reverse_, k2_at - 1) < at(reverse_, k2_at + 1)))
                       ? at(reverse_, k2_at + 1)
                       : at(reverse_, k2_at - 1) + 1;
        Index y2 = x2 - k2;
        while (x2 < n && y2 < m && same(a1 - 1 - x2, b1 - 1 - y2))
          ++x2, ++y2;
        at(reverse_, k2_at) = x2;
        if (x2 > n) {
          k2_end += 2;
        } else if (y2 > m) {
          k2_start += 2;
        } else if (!odd) {
          const Index k1_at = offset + delta - k2;
          if (k1_at >= 0 && k1_at < length && at(forward_, k1_at) != -1) {
            const Index x1 = at(forward_, k1_at);
            const Index y1 = offset + x1 - k1_at;
            if (x1 >= n - x2) return {a0 + x1, b0 + y1};
          }
        }
      }
    }
    return {-1, -1};
  }

  const std::vector<std::string_view>& a_;
  const std::vector<std::string_view>& b_;
  const std::function<void(Op, std::size_t)>& emit_;
  std::vector<std::uint64_t> hash_a_, hash_b_;
  std::vector<Index> forward_, reverse_;  // furthest x on each diagonal, by k + offset
};

}  // namespace

void line_script(const std::vector<std::string_view>& a, const std::vector<std::string_view>& b,
                 const std::function<void(Op op, std::size_t index)>& emit) {
  Script script(a, b, emit);
  script.run(0, static_cast<Index>(a.size()), 0, static_cast<Index>(b.size()));
}

std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    const void* lf = std::memchr(text.data() + start, '\n', text.size() - start);
    std::size_t end = lf == nullptr ? text.size() : static_cast<const char*>(lf) - text.data() + 1;
    lines.push_back(text.substr(start, end - start));
    start = end;
  }
  return lines;
}

}  // namespace archfit::diff
