#include <functional>

#include <archfit/base/error.hpp>
#include <archfit/base/indentation.hpp>
#include <archfit/run/item_stream.hpp>

namespace archfit::run {

std::optional<ItemStream> ItemStream::cut(std::string_view text,
                                          const std::vector<yaml::ListItem>& items) {
  // Each item after as many spaces as stand before it on its line (its "- "
  // among them): every line of it is where it was, and the item reads alone
  // as it reads in the list, block or flow.
  ItemStream out;
  out.stream_.reserve(text.size() + 8 * items.size());
  for (const yaml::ListItem& li : items) {
    Item it;
    it.begin = li.begin;
    it.end = li.end;
    if (!li.flow && it.end > 0 && text[it.end - 1] != '\n') {
      std::size_t nl = text.find('\n', it.end);
      it.end = nl == std::string_view::npos ? text.size() : nl + 1;
    }
    if (li.flow) {
      // Whatever stands before it, a flow item reads alone; so many spaces
      // for its column, unless it stands far along a line (a list written on
      // one line): item_shift() says what its first line's columns lack.
      it.pad = li.column <= kMostPad ? li.column : 0;
    } else {
      std::size_t line_start = it.begin;
      while (line_start > 0 && text[line_start - 1] != '\n')
        --line_start;
      it.pad = it.begin - line_start;
      if (text.substr(line_start, it.pad).find_first_not_of(" -") != std::string_view::npos)
        return std::nullopt;  // a tab before it
    }
    it.stream_begin = out.stream_.size();
    out.stream_ += "---\n";
    out.stream_.append(it.pad, ' ');
    out.stream_.append(text.substr(it.begin, it.end - it.begin));
    if (out.stream_.back() != '\n') out.stream_ += '\n';
    it.stream_end = out.stream_.size();
    out.items_.push_back(it);
  }
  return out;
}

std::size_t ItemStream::item_shift(std::size_t i, const yaml::ListItem& found) const {
  return found.column - items_.at(i).pad;
}

std::string ItemStream::item_text(std::size_t i, std::string_view text,
                                  std::string_view edited) const {
  const Item& item = items_.at(i);
  std::string_view head = edited.substr(0, 4 + item.pad);
  if (head.substr(0, 4) != "---\n" || head.find_first_not_of(' ', 4) != std::string_view::npos)
    fail(ErrorKind::Internal, "an edit of a list's item took its document marker");
  std::string out;
  out.reserve(edited.size() + edited.size() / 8);
  const std::function<void(std::string_view)> put = [&out](std::string_view part) { out += part; };
  Indenter indent(item.indent, put);
  indent.add(edited.substr(4 + item.pad));
  indent.finish(item.end == item.begin || text[item.end - 1] == '\n');
  return out;
}

}  // namespace archfit::run
