#include <cstdio>
#include <cstring>
#include <deque>
#include <functional>
#include <utility>
#include <vector>

#include <archfit/base/unified_diff.hpp>

#include "base/line_diff.hpp"

namespace archfit {

namespace {

using diff::Op;

void append_line(std::string& out, char mark, std::string_view line) {
  out += mark;
  out.append(line);
  if (line.empty() || line.back() != '\n') out += "\n\\ No newline at end of file\n";
}

// "3", "3,0" or "3,7": the first line of a side and how many; an empty side
// names the line before it, as diff -u does.
std::string range(std::size_t lines_before, std::size_t count) {
  std::string text = std::to_string(count == 0 ? lines_before : lines_before + 1);
  if (count != 1) text += ',' + std::to_string(count);
  return text;
}

// Takes the script line by line, in order, and writes diff -u hunks: each
// change with up to `context` kept lines around it, changes closer than
// 2 * context kept lines in one hunk. It holds only the open hunk and the
// last `context` kept lines (views of the original, which outlives it).
class HunkWriter {
 public:
  // Hunks go to `put` a few at a time, after `header`, which goes first
  // when there is any.
  HunkWriter(const std::function<void(std::string_view)>& put, std::string header,
             std::size_t context)
      : put_(put), header_(std::move(header)), context_(context) {}

  void keep(std::string_view line) {
    ++a_lines_, ++b_lines_;
    recent_.push_back(line);
    if (recent_.size() > context_) recent_.pop_front();
    if (!open_) return;
    hunk_.push_back({' ', std::string(line)});
    ++a_count_, ++b_count_;
    if (++trailing_ > 2 * context_) close();
  }

  void change(Op op, std::string_view line) {
    if (!open_) {
      open_ = true;
      a_start_ = a_lines_ - recent_.size();
      b_start_ = b_lines_ - recent_.size();
      for (std::string_view kept : recent_)
        hunk_.push_back({' ', std::string(kept)});
      a_count_ = b_count_ = recent_.size();
    }
    recent_.clear();
    trailing_ = 0;
    if (op == Op::Delete) {
      hunk_.push_back({'-', std::string(line)});
      ++a_lines_, ++a_count_;
    } else {
      hunk_.push_back({'+', std::string(line)});
      ++b_lines_, ++b_count_;
    }
  }

  bool open() const { return open_; }

  void finish() {
    if (open_) close();
    flush();
  }

 private:
  // Ends the hunk `context` kept lines after its last change.
  void close() {
    std::size_t extra = trailing_ > context_ ? trailing_ - context_ : 0;
    hunk_.resize(hunk_.size() - extra);
    a_count_ -= extra;
    b_count_ -= extra;
    out_ += "@@ -" + range(a_start_, a_count_) + " +" + range(b_start_, b_count_) + " @@\n";
    for (const Line& line : hunk_)
      append_line(out_, line.mark, line.text);
    hunk_.clear();
    open_ = false;
    trailing_ = 0;
    if (out_.size() >= kPiece) flush();
  }

  // What is written so far goes out: a diff of any size is held a piece at
  // a time.
  void flush() {
    if (out_.empty()) return;
    if (!header_.empty()) put_(std::exchange(header_, std::string()));
    put_(out_);
    out_.clear();
  }
  static constexpr std::size_t kPiece = 64 * 1024;

  // Copies: a region's new text lives only while the region is compared.
  struct Line {
    char mark;
    std::string text;
  };
  const std::function<void(std::string_view)>& put_;
  std::string header_;
  std::string out_;
  const std::size_t context_;
  std::size_t a_lines_ = 0, b_lines_ = 0;  // lines of each side taken so far
  std::deque<std::string_view> recent_;    // the last kept lines since a change
  std::vector<Line> hunk_;
  bool open_ = false;
  std::size_t a_start_ = 0, b_start_ = 0, a_count_ = 0, b_count_ = 0;
  std::size_t trailing_ = 0;  // kept lines since the hunk's last change
};

// Feeds every line of text[from, to) to the writer as kept.
void keep_lines(HunkWriter& writer, std::string_view text, std::size_t from, std::size_t to) {
  while (from < to) {
    const void* lf = std::memchr(text.data() + from, '\n', to - from);
    std::size_t end = lf == nullptr ? to : static_cast<const char*>(lf) - text.data() + 1;
    writer.keep(text.substr(from, end - from));
    from = end;
  }
}

// The first byte of the line holding `pos`, looking back no further than
// `floor`.
std::size_t line_start(std::string_view text, std::size_t floor, std::size_t pos) {
  while (pos > floor && text[pos - 1] != '\n')
    --pos;
  return pos;
}

// The byte after the line break at or after `pos` (the end of the text
// when there is none).
std::size_t line_end(std::string_view text, std::size_t pos) {
  if (pos >= text.size()) return text.size();
  const void* lf = std::memchr(text.data() + pos, '\n', text.size() - pos);
  return lf == nullptr ? text.size() : static_cast<const char*>(lf) - text.data() + 1;
}

// `pos` when it starts a line (or ends the text), else the end of its line.
std::size_t whole_line_end(std::string_view text, std::size_t pos) {
  if (pos == 0 || pos >= text.size() || text[pos - 1] == '\n') return pos;
  return line_end(text, pos);
}

}  // namespace

void write_unified_diff(std::string_view original, const Splices& edits,
                        const std::string& before_name, const std::string& after_name,
                        const std::function<void(std::string_view)>& put, int context) {
  HunkWriter writer(
      put, "--- " + git_quoted_path(before_name) + "\n+++ " + git_quoted_path(after_name) + "\n",
      static_cast<std::size_t>(context < 0 ? 0 : context));
  const Splices::List& all = edits.replacements();
  std::size_t done = 0;  // bytes of the original fed to the writer
  for (std::size_t i = 0; i < all.size();) {
    // A region: whole lines of the original around one replacement and every
    // later one that starts on them; what it becomes, as whole lines too. A
    // replacement that ends at a line's start ends its region there, so that
    // edits of neighbouring documents stay regions of their own.
    std::size_t begin = line_start(original, done, all[i].begin);
    std::size_t end = begin;
    std::size_t at = begin;
    std::string after;
    for (;;) {
      do {
        after.append(original.substr(at, all[i].begin - at));
        after += all[i].text;
        at = all[i].end;
        end = std::max(end, whole_line_end(original, at));
        ++i;
      } while (i < all.size() && all[i].begin < end);
      // The new text must end its last line where the old one does; when it
      // does not, the next line of the original belongs to the region.
      bool ends_line = end == at ? after.empty() || after.back() == '\n' : true;
      if (ends_line || end >= original.size()) break;
      end = line_end(original, end);
      if (i == all.size() || all[i].begin >= end) break;
    }
    after.append(original.substr(at, end - at));
    keep_lines(writer, original, done, begin);
    std::string_view before_text = original.substr(begin, end - begin);
    if (before_text != after) {
      std::vector<std::string_view> a = diff::lines_of(before_text);
      std::vector<std::string_view> b = diff::lines_of(after);
      diff::line_script(a, b, [&](Op op, std::size_t index) {
        if (op == Op::Keep) {
          writer.keep(a[index]);
        } else {
          writer.change(op, op == Op::Delete ? a[index] : b[index]);
        }
      });
    } else {
      keep_lines(writer, original, begin, end);
    }
    done = end;
  }
  // The context after the last change; nothing beyond it is needed.
  while (writer.open() && done < original.size()) {
    std::size_t end = line_end(original, done);
    writer.keep(original.substr(done, end - done));
    done = end;
  }
  writer.finish();
}

std::string unified_diff(std::string_view original, const Splices& edits,
                         const std::string& before_name, const std::string& after_name,
                         int context) {
  std::string out;
  write_unified_diff(
      original, edits, before_name, after_name, [&out](std::string_view part) { out += part; },
      context);
  return out;
}

std::string unified_diff(std::string_view before, std::string_view after,
                         const std::string& before_name, const std::string& after_name,
                         int context) {
  if (before == after) return {};
  std::size_t prefix = 0;
  const std::size_t shorter = std::min(before.size(), after.size());
  while (prefix < shorter && before[prefix] == after[prefix])
    ++prefix;
  std::size_t suffix = 0;
  while (suffix < shorter - prefix &&
         before[before.size() - 1 - suffix] == after[after.size() - 1 - suffix]) {
    ++suffix;
  }
  Splices edits;
  edits.replace(prefix, before.size() - prefix - suffix,
                std::string(after.substr(prefix, after.size() - prefix - suffix)));
  return unified_diff(before, edits, before_name, after_name, context);
}

std::string git_quoted_path(std::string_view path) {
  bool plain = true;
  for (unsigned char c : path)
    plain = plain && c >= 0x20 && c < 0x7F && c != '"' && c != '\\';
  if (plain) return std::string(path);
  std::string out = "\"";
  for (unsigned char c : path) {
    switch (c) {
      case '\a':
        out += "\\a";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\v':
        out += "\\v";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\r':
        out += "\\r";
        break;
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      default:
        if (c >= 0x20 && c < 0x7F) {
          out += static_cast<char>(c);
        } else {
          char octal[8];
          std::snprintf(octal, sizeof octal, "\\%03o", c);
          out += octal;
        }
    }
  }
  out += '"';
  return out;
}

}  // namespace archfit
