#include "surface/command_line/lock_diff.hpp"

#include <algorithm>
#include <optional>
#include <vector>

#include <archfit/base/unified_diff.hpp>

namespace archfit::surface::command_line {

namespace {

// One entry of the images map as archfit writes it: from its key's line
// (`    "IMAGE": {`) to its closing line (`    }` or `    },`), whole lines.
struct Block {
  std::string_view key;  // as written, with its JSON escapes
  std::size_t begin = 0;
  std::size_t end = 0;
};

// The entries of a lock text in order, or nullopt when the text is not laid
// out as archfit writes it (or its keys are not in order).
std::optional<std::vector<Block>> blocks_of(std::string_view text) {
  std::vector<Block> blocks;
  std::size_t at = 0;
  bool inside = false;  // within an entry
  while (at < text.size()) {
    std::size_t eol = text.find('\n', at);
    if (eol == std::string_view::npos) return std::nullopt;  // archfit ends every line
    std::string_view line = text.substr(at, eol - at);
    if (!inside && line.size() > 8 && line.starts_with("    \"") && line.ends_with("\": {")) {
      std::string_view key = line.substr(5, line.size() - 9);
      if (!blocks.empty() && !(blocks.back().key < key)) return std::nullopt;
      blocks.push_back(Block{key, at, 0});
      inside = true;
    } else if (inside && (line == "    }" || line == "    },")) {
      blocks.back().end = eol + 1;
      inside = false;
    } else if (!inside && line.starts_with("    ")) {
      return std::nullopt;  // an entry archfit would not write so
    }
    at = eol + 1;
  }
  if (inside) return std::nullopt;
  return blocks;
}

std::string_view text_of(std::string_view text, const Block& b) {
  return text.substr(b.begin, b.end - b.begin);
}

// A new file: every line added.
void added(std::string_view after, const std::string& name,
           const std::function<void(std::string_view)>& put) {
  std::size_t lines = 0;
  for (char c : after)
    lines += c == '\n' ? 1 : 0;
  std::string head = "--- /dev/null\n+++ " + git_quoted_path("b/" + name) + "\n@@ -0,0 +1";
  if (lines != 1) head += "," + std::to_string(lines);
  head += " @@\n";
  put(head);
  std::size_t at = 0;
  while (at < after.size()) {
    std::size_t eol = after.find('\n', at);
    std::size_t end = eol == std::string_view::npos ? after.size() : eol + 1;
    put("+");
    put(after.substr(at, end - at));
    at = end;
  }
}

// A run of old lines [begin, end) of the text that becomes `after` (pieces,
// each whole lines).
struct Region {
  std::size_t begin = 0;
  std::size_t end = 0;
  std::vector<std::string_view> after;
  bool open = true;                          // the next change may extend it
  std::size_t first_line = 0, end_line = 0;  // of begin and end, 0-based
};

std::size_t lines_in(std::string_view text) {
  std::size_t n = 0;
  for (char c : text)
    n += c == '\n' ? 1 : 0;
  return n;
}

// Each line of `text` with `mark` before it.
void marked(char mark, std::string_view text, const std::function<void(std::string_view)>& put) {
  const std::string_view m(&mark, 1);
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at) + 1;
    put(m);
    put(text.substr(at, end - at));
    at = end;
  }
}

// The regions as diff -u hunks, three lines of context, regions closer than
// six kept lines in one hunk. Every region starts and ends at a line start
// of `before` (whose lines all end with a line break), and so does every
// piece of its new text: nothing is held but two line numbers a region.
void write_hunks(std::string_view before, std::vector<Region>& regions, const std::string& name,
                 const std::function<void(std::string_view)>& put) {
  constexpr std::size_t kContext = 3;
  if (regions.empty()) return;
  // Line numbers of the regions' ends, counted once, front to back.
  std::size_t at = 0, line = 0;
  auto line_at = [&](std::size_t offset) {
    for (; at < offset; ++at)
      line += before[at] == '\n' ? 1 : 0;
    return line;
  };
  for (Region& r : regions) {
    r.first_line = line_at(r.begin);
    r.end_line = line_at(r.end);
  }
  const std::size_t total = line_at(before.size());
  // The offset `count` lines before or after a line start.
  auto back = [&before](std::size_t offset, std::size_t count) {
    while (count > 0 && offset > 0) {
      const std::size_t previous =
          offset >= 2 ? before.rfind('\n', offset - 2) : std::string_view::npos;
      offset = previous == std::string_view::npos ? 0 : previous + 1;
      --count;
    }
    return offset;
  };
  auto ahead = [&before](std::size_t offset, std::size_t count) {
    for (; count > 0 && offset < before.size(); --count)
      offset = before.find('\n', offset) + 1;
    return offset;
  };
  put("--- " + git_quoted_path("a/" + name) + "\n+++ " + git_quoted_path("b/" + name) + "\n");
  long long shift = 0;  // new lines minus old lines of the hunks so far
  std::size_t r = 0;
  while (r < regions.size()) {
    // The regions of this hunk: while the next starts within 2 * context.
    std::size_t last = r;
    while (last + 1 < regions.size() &&
           regions[last + 1].first_line - regions[last].end_line <= 2 * kContext) {
      ++last;
    }
    const std::size_t pre = std::min(kContext, regions[r].first_line);
    const std::size_t post = std::min(kContext, total - regions[last].end_line);
    std::size_t old_count = pre + post, new_count = pre + post;
    for (std::size_t k = r; k <= last; ++k) {
      const std::size_t gap = k == r ? 0 : regions[k].first_line - regions[k - 1].end_line;
      old_count += gap + regions[k].end_line - regions[k].first_line;
      new_count += gap;
      for (std::string_view piece : regions[k].after)
        new_count += lines_in(piece);
    }
    const std::size_t a_start = regions[r].first_line - pre;
    const auto b_start = static_cast<std::size_t>(static_cast<long long>(a_start) + shift);
    auto range = [](std::size_t start, std::size_t count) {
      std::string text = std::to_string(count == 0 ? start : start + 1);
      if (count != 1) text += "," + std::to_string(count);
      return text;
    };
    put("@@ -" + range(a_start, old_count) + " +" + range(b_start, new_count) + " @@\n");
    const std::size_t from = back(regions[r].begin, pre);
    marked(' ', before.substr(from, regions[r].begin - from), put);
    for (std::size_t k = r; k <= last; ++k) {
      if (k > r) {
        marked(' ', before.substr(regions[k - 1].end, regions[k].begin - regions[k - 1].end), put);
      }
      marked('-', before.substr(regions[k].begin, regions[k].end - regions[k].begin), put);
      for (std::string_view piece : regions[k].after)
        marked('+', piece, put);
    }
    const std::size_t to = ahead(regions[last].end, post);
    marked(' ', before.substr(regions[last].end, to - regions[last].end), put);
    shift += static_cast<long long>(new_count) - static_cast<long long>(old_count);
    r = last + 1;
  }
}

}  // namespace

void write_lock_diff(std::string_view before, bool existed, std::string_view after,
                     const std::string& name, const std::function<void(std::string_view)>& put) {
  if (!existed) return added(after, name, put);
  if (before == after) return;
  std::optional<std::vector<Block>> old_blocks = blocks_of(before);
  std::optional<std::vector<Block>> new_blocks = blocks_of(after);
  if (!old_blocks || !new_blocks || old_blocks->empty() || new_blocks->empty()) {
    return put(unified_diff(before, after, "a/" + name, "b/" + name));
  }
  const std::vector<Block>& o = *old_blocks;
  const std::vector<Block>& n = *new_blocks;
  // What is around the entries must be the same: they alone differ.
  if (before.substr(0, o.front().begin) != after.substr(0, n.front().begin) ||
      before.substr(o.back().end) != after.substr(n.back().end)) {
    return put(unified_diff(before, after, "a/" + name, "b/" + name));
  }
  // Merged by image: an entry of both that differs is replaced, one of the
  // old alone removed, one of the new alone inserted where it sorts; runs
  // of these next to one another are one region.
  std::vector<Region> regions;
  auto change = [&regions](std::size_t begin, std::size_t end, std::string_view text) {
    if (!regions.empty() && regions.back().end == begin && regions.back().open) {
      regions.back().end = end;
      regions.back().after.push_back(text);
    } else {
      regions.push_back(Region{begin, end, {text}, true, 0, 0});
    }
  };
  std::size_t i = 0, j = 0;
  while (i < o.size() || j < n.size()) {
    if (j == n.size() || (i < o.size() && o[i].key < n[j].key)) {
      change(o[i].begin, o[i].end, "");
      ++i;
    } else if (i == o.size() || n[j].key < o[i].key) {
      const std::size_t at = i < o.size() ? o[i].begin : o.back().end;
      change(at, at, text_of(after, n[j]));
      ++j;
    } else {
      if (text_of(before, o[i]) != text_of(after, n[j])) {
        change(o[i].begin, o[i].end, text_of(after, n[j]));
      } else if (!regions.empty()) {
        regions.back().open = false;
      }
      ++i;
      ++j;
    }
  }
  write_hunks(before, regions, name, put);
}

}  // namespace archfit::surface::command_line
