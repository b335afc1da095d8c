// Positions in a document's text that the editor needs around nodes: line
// starts and ends, the ':' after a key, the '-' before a sequence item.
// Columns count bytes from the line start: indentation is ASCII spaces, and
// so is what precedes a key on its line ("- ").
#pragma once

#include <cstdint>
#include <string_view>

#include <archfit/yaml/node.hpp>

namespace archfit::edit::detail {

inline constexpr std::uint32_t kNoPosition = 0xffffffffu;

class TextPositions {
 public:
  explicit TextPositions(std::string_view text) : text_(text) {}

  std::string_view text() const { return text_; }
  std::uint32_t size() const { return static_cast<std::uint32_t>(text_.size()); }

  std::uint32_t line_start(std::uint32_t pos) const;
  // The position after the line that holds `pos` (a position at the start of
  // a line is already there).
  std::uint32_t end_of_line(std::uint32_t pos) const;
  int column_at(std::uint32_t pos) const { return static_cast<int>(pos - line_start(pos)); }
  // Only blanks before `pos` on its line.
  bool first_on_line(std::uint32_t pos) const;
  // Just after the ':' that follows a key; kNoPosition when there is none
  // (an explicit `? key`).
  std::uint32_t colon_after(yaml::NodeRef key) const;
  // The '-' that introduces a block sequence item; kNoPosition if none.
  std::uint32_t dash_before(yaml::NodeRef item) const;
  // The opening bracket of a flow collection.
  std::uint32_t open_bracket(yaml::NodeRef collection) const;

 private:
  std::string_view text_;
};

}  // namespace archfit::edit::detail
