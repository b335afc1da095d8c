// Taking a block's indentation off its lines and giving it back: how the
// items of a list are cut out to read as documents of their own, and put
// back in their place, every other byte as it was.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace archfit {

// Appends `text` with `indent` spaces taken off each line that is not empty,
// the first one aside unless `all`. False when such a line lacks them.
bool unindent(std::string_view text, std::size_t indent, bool all, std::string& out);

// Hands text to `put` with each line indented by `indent` spaces (blank
// lines stay empty), as views of the text and of one pad: an item is never
// copied to be indented. Text may come in pieces in which a line begins in
// one and goes on in the next; the first line is not indented (an item's
// first, after its "- "). A last line break is held back until more follows
// or finish() says whether it is wanted.
class Indenter {
 public:
  Indenter(std::size_t indent, const std::function<void(std::string_view)>& put)
      : pad_(indent, ' '), put_(put) {}

  void add(std::string_view s);
  // The held line break, when wanted.
  void finish(bool line_break);

 private:
  std::string pad_;
  const std::function<void(std::string_view)>& put_;
  bool at_line_start_ = false;
  bool newline_held_ = false;
};

}  // namespace archfit
