#include <algorithm>
#include <vector>

#include <archfit/base/unified_diff.hpp>

namespace archfit {

namespace {

std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t lf = text.find('\n', start);
    std::size_t end = lf == std::string_view::npos ? text.size() : lf + 1;
    lines.push_back(text.substr(start, end - start));
    start = end;
  }
  return lines;
}

enum class Op { Keep, Delete, Insert };
struct Edit {
  Op op;
  std::size_t a;  // line in before (Keep, Delete)
  std::size_t b;  // line in after (Keep, Insert)
};

// Myers' O(ND) shortest edit script, after trimming the common prefix and
// suffix (edits to manifests are small and local).
std::vector<Edit> shortest_edit(const std::vector<std::string_view>& a,
                                const std::vector<std::string_view>& b) {
  std::size_t prefix = 0;
  while (prefix < a.size() && prefix < b.size() && a[prefix] == b[prefix])
    ++prefix;
  std::size_t suffix = 0;
  while (suffix < a.size() - prefix && suffix < b.size() - prefix &&
         a[a.size() - 1 - suffix] == b[b.size() - 1 - suffix]) {
    ++suffix;
  }
  const long n = static_cast<long>(a.size() - prefix - suffix);
  const long m = static_cast<long>(b.size() - prefix - suffix);
  const long max = n + m;
  std::vector<long> v(static_cast<std::size_t>(2 * max + 2), 0);
  std::vector<std::vector<long>> trace;
  auto at = [&](long k) -> long& { return v[static_cast<std::size_t>(k + max + 1)]; };
  long found_d = 0;
  for (long d = 0; d <= max; ++d) {
    trace.push_back(v);
    bool done = false;
    for (long k = -d; k <= d; k += 2) {
      long x = (k == -d || (k != d && at(k - 1) < at(k + 1))) ? at(k + 1) : at(k - 1) + 1;
      long y = x - k;
      while (x < n && y < m && a[prefix + x] == b[prefix + y])
        ++x, ++y;
      at(k) = x;
      if (x >= n && y >= m) {
        done = true;
        break;
      }
    }
    if (done) {
      found_d = d;
      break;
    }
  }
  // Walk back through the trace.
  std::vector<Edit> middle;
  long x = n, y = m;
  for (long d = found_d; d > 0; --d) {
    const std::vector<long>& pv = trace[static_cast<std::size_t>(d)];
    auto pat = [&](long k) { return pv[static_cast<std::size_t>(k + max + 1)]; };
    long k = x - y;
    long prev_k = (k == -d || (k != d && pat(k - 1) < pat(k + 1))) ? k + 1 : k - 1;
    long prev_x = pat(prev_k);
    long prev_y = prev_x - prev_k;
    while (x > prev_x && y > prev_y) {
      --x, --y;
      middle.push_back({Op::Keep, static_cast<std::size_t>(x), static_cast<std::size_t>(y)});
    }
    if (x == prev_x) {
      --y;
      middle.push_back({Op::Insert, 0, static_cast<std::size_t>(y)});
    } else {
      --x;
      middle.push_back({Op::Delete, static_cast<std::size_t>(x), 0});
    }
  }
  while (x > 0 && y > 0) {
    --x, --y;
    middle.push_back({Op::Keep, static_cast<std::size_t>(x), static_cast<std::size_t>(y)});
  }
  std::reverse(middle.begin(), middle.end());
  std::vector<Edit> out;
  for (std::size_t i = 0; i < prefix; ++i)
    out.push_back({Op::Keep, i, i});
  for (const Edit& e : middle)
    out.push_back({e.op, e.a + prefix, e.b + prefix});
  for (std::size_t i = 0; i < suffix; ++i) {
    out.push_back({Op::Keep, a.size() - suffix + i, b.size() - suffix + i});
  }
  return out;
}

void append_line(std::string& out, char mark, std::string_view line) {
  out += mark;
  out.append(line);
  if (line.empty() || line.back() != '\n') out += "\n\\ No newline at end of file\n";
}

}  // namespace

std::string unified_diff(std::string_view before, std::string_view after,
                         const std::string& before_name, const std::string& after_name,
                         int context) {
  if (before == after) return {};
  std::vector<std::string_view> a = lines_of(before);
  std::vector<std::string_view> b = lines_of(after);
  std::vector<Edit> edits = shortest_edit(a, b);
  std::string out = "--- ";
  out += before_name;
  out += "\n+++ ";
  out += after_name;
  out += '\n';
  const std::size_t ctx = static_cast<std::size_t>(context);
  std::size_t i = 0;
  while (i < edits.size()) {
    while (i < edits.size() && edits[i].op == Op::Keep)
      ++i;
    if (i == edits.size()) break;
    // A hunk: from `ctx` kept lines before this change to `ctx` after the
    // last change that is within 2*ctx kept lines of the previous one.
    std::size_t start = i >= ctx ? i - ctx : 0;
    std::size_t end = i;
    std::size_t kept_run = 0;
    for (std::size_t j = i; j < edits.size(); ++j) {
      if (edits[j].op == Op::Keep) {
        if (++kept_run > 2 * ctx) break;
      } else {
        kept_run = 0;
        end = j + 1;
      }
    }
    end = std::min(edits.size(), end + ctx);
    // Lines of each side before the hunk: diff -u numbers from there.
    std::size_t a_before = 0, b_before = 0;
    for (std::size_t j = 0; j < start; ++j) {
      if (edits[j].op != Op::Insert) ++a_before;
      if (edits[j].op != Op::Delete) ++b_before;
    }
    std::size_t a_count = 0, b_count = 0;
    std::string body;
    for (std::size_t j = start; j < end; ++j) {
      const Edit& e = edits[j];
      if (e.op != Op::Insert) ++a_count;
      if (e.op != Op::Delete) ++b_count;
      append_line(body,
                  e.op == Op::Keep     ? ' '
                  : e.op == Op::Delete ? '-'
                                       : '+',
                  e.op == Op::Insert ? b[e.b] : a[e.a]);
    }
    // An empty side names the line before it, as diff -u does.
    auto range = [](std::size_t before_count, std::size_t count) {
      std::size_t first = count == 0 ? before_count : before_count + 1;
      std::string text = std::to_string(first);
      if (count != 1) {
        text += ',';
        text += std::to_string(count);
      }
      return text;
    };
    out += "@@ -";
    out += range(a_before, a_count);
    out += " +";
    out += range(b_before, b_count);
    out += " @@\n";
    out += body;
    i = end;
  }
  return out;
}

}  // namespace archfit
