#include "edit/text_positions.hpp"

namespace archfit::edit::detail {

std::uint32_t TextPositions::line_start(std::uint32_t pos) const {
  while (pos > 0 && text_[pos - 1] != '\n' && text_[pos - 1] != '\r')
    --pos;
  return pos;
}

std::uint32_t TextPositions::end_of_line(std::uint32_t pos) const {
  if (pos > 0 && text_[pos - 1] == '\n') return pos;
  std::size_t lf = text_.find('\n', pos);
  return lf == std::string_view::npos ? size() : static_cast<std::uint32_t>(lf + 1);
}

bool TextPositions::first_on_line(std::uint32_t pos) const {
  for (std::uint32_t i = line_start(pos); i < pos; ++i) {
    if (text_[i] != ' ' && text_[i] != '\t') return false;
  }
  return true;
}

std::uint32_t TextPositions::colon_after(yaml::NodeRef key) const {
  std::uint32_t pos = key.span().end;
  while (pos < text_.size() && (text_[pos] == ' ' || text_[pos] == '\t'))
    ++pos;
  return pos < text_.size() && text_[pos] == ':' ? pos + 1 : kNoPosition;
}

std::uint32_t TextPositions::dash_before(yaml::NodeRef item) const {
  std::uint32_t pos = item.span().begin;
  while (pos > 0 && (text_[pos - 1] == ' ' || text_[pos - 1] == '\t'))
    --pos;
  return pos > 0 && text_[pos - 1] == '-' ? pos - 1 : kNoPosition;
}

std::uint32_t TextPositions::open_bracket(yaml::NodeRef collection) const {
  // A flow collection's span starts at its bracket, after any anchor or tag.
  std::uint32_t pos = collection.span().begin;
  char want = collection.is_mapping() ? '{' : '[';
  while (pos < text_.size() && text_[pos] != want)
    ++pos;
  return pos < text_.size() ? pos : kNoPosition;
}

}  // namespace archfit::edit::detail
