#include <algorithm>

#include <archfit/base/error.hpp>
#include <archfit/base/indentation.hpp>
#include <archfit/surface/krm/resource_list.hpp>

namespace archfit::surface::krm {

namespace {

// Whether `line` may end in a block scalar's header ("key: |", "- >-",
// "key: |2 # note"): a '|' or '>' after a space, ':' or '-' (or at the line's
// start), then at most chomping and indentation indicators, blanks and a
// comment. Errs towards yes.
bool may_open_block_scalar(std::string_view line) {
  std::size_t at = line.find_last_of("|>");
  while (at != std::string_view::npos) {
    char before = at == 0 ? ' ' : line[at - 1];
    if (before == ' ' || before == '\t' || before == ':' || before == '-') {
      std::size_t rest = line.find_first_not_of("+-0123456789", at + 1);
      rest = rest == std::string_view::npos ? line.size() : line.find_first_not_of(" \t\r\n", rest);
      if (rest == std::string_view::npos || line[rest] == '#') return true;
    }
    at = at == 0 ? std::string_view::npos : line.find_last_of("|>", at - 1);
  }
  return false;
}

bool may_hold_block_scalar(std::string_view text) {
  for (std::size_t at = 0; at < text.size();) {
    std::size_t nl = text.find('\n', at);
    std::size_t end = nl == std::string_view::npos ? text.size() : nl + 1;
    if (may_open_block_scalar(text.substr(at, end - at))) return true;
    at = end;
  }
  return false;
}

}  // namespace

std::optional<ResourceListItems> ResourceListItems::split(std::string_view text,
                                                          yaml::NodeRef items) {
  items = items.resolved();
  ResourceListItems out;
  if (!items.is_sequence()) return out;
  if (items.style() != yaml::Style::Block) return std::nullopt;
  out.stream_.reserve(text.size());
  for (std::size_t i = 0; i < items.size(); ++i) {
    yaml::NodeRef item = items.item(i);
    if (item.is_alias() || item.style() != yaml::Style::Block || !item.is_mapping()) {
      return std::nullopt;
    }
    std::size_t begin = item.span().begin;
    std::size_t end = item.span().end;
    if (end > 0 && text[end - 1] != '\n') {
      std::size_t nl = text.find('\n', end);
      end = nl == std::string_view::npos ? text.size() : nl + 1;
    }
    // What stands before the item on its line: spaces and the sequence's "- ".
    std::size_t line_start = begin;
    while (line_start > 0 && text[line_start - 1] != '\n')
      --line_start;
    std::string_view before = text.substr(line_start, begin - line_start);
    if (before.find_first_not_of(" -") != std::string_view::npos) return std::nullopt;
    if (!out.add(text, begin, end, before.size())) return std::nullopt;
  }
  return out;
}

bool ResourceListItems::add(std::string_view text, std::size_t begin, std::size_t end,
                            std::size_t indent) {
  Item it;
  it.begin = begin;
  it.end = end;
  it.indent = indent;
  it.stream_begin = stream_.size();  // a document starts at its marker
  stream_ += "---\n";
  if (!unindent(text.substr(begin, end - begin), indent, false, stream_)) return false;
  if (stream_.back() != '\n') stream_ += '\n';
  it.stream_end = stream_.size();
  items_.push_back(it);
  return true;
}

std::optional<ResourceListItems> ResourceListItems::scan(std::string_view text) {
  struct Line {
    std::size_t begin, end;  // end: after its '\n'
    std::size_t indent;      // spaces before its first other character
    bool blank;              // nothing but spaces, or a comment
  };
  auto line_at = [&text](std::size_t at) {
    Line l{at, 0, 0, false};
    std::size_t nl = text.find('\n', at);
    l.end = nl == std::string_view::npos ? text.size() : nl + 1;
    while (at + l.indent < l.end && text[at + l.indent] == ' ')
      ++l.indent;
    char c = at + l.indent < l.end ? text[at + l.indent] : '\n';
    l.blank = c == '\n' || c == '\r' || c == '#';
    return l;
  };
  auto starts = [&text](const Line& l, std::string_view what) {
    return text.substr(l.begin + l.indent, what.size()) == what;
  };
  ResourceListItems out;
  out.stream_.reserve(text.size());
  std::size_t at = 0;
  bool seen_items = false;
  while (at < text.size()) {
    Line l = line_at(at);
    at = l.end;
    if (l.blank || l.indent > 0) continue;  // what belongs to a key at the top
    // Another document, directives, tabs, flow, a sequence at the top: not for the scan.
    if (starts(l, "---") || starts(l, "...") || starts(l, "%") || starts(l, "-") ||
        starts(l, "{") || starts(l, "[") || text[l.begin] == '\t') {
      return std::nullopt;
    }
    if (!starts(l, "items:")) continue;
    std::string_view rest = text.substr(l.begin + 6, l.end - l.begin - 6);
    std::size_t first = rest.find_first_not_of(" \r\n");
    if (first != std::string_view::npos && rest[first] != '#')
      return std::nullopt;  // flow, or a scalar
    if (seen_items) return std::nullopt;
    seen_items = true;
    // The sequence: items start at one column with "- ". Each item's lines go
    // to the stream as they are read, their indentation taken off; blank lines
    // only once a line of the item follows them.
    std::size_t column = std::string_view::npos;
    Item item;
    bool open = false;
    std::size_t blank_from = 0;    // blank lines not yet taken, from here
    std::size_t shallow_from = 0;  // the first of them that is a comment left of the item's keys
    // Closes the open item, whose blank lines run to `upto`. They are its own
    // when it may end in a block scalar (lines of the scalar, a "#" too when
    // indented enough) up to a comment left of the item's keys, which ends any
    // scalar: taken with the item, they read as they did whichever they are.
    auto close = [&](std::size_t upto) {
      if (!open) return true;
      if (blank_from != 0 &&
          may_hold_block_scalar(text.substr(item.begin, item.end - item.begin))) {
        std::size_t end = shallow_from != 0 ? shallow_from : upto;
        if (!unindent(text.substr(blank_from, end - blank_from), item.indent, true, out.stream_)) {
          return false;
        }
        item.end = end;
      }
      if (out.stream_.back() != '\n') out.stream_ += '\n';
      item.stream_end = out.stream_.size();
      out.items_.push_back(item);
      open = false;
      return true;
    };
    while (at < text.size()) {
      Line m = line_at(at);
      if (m.blank) {
        if (blank_from == 0) blank_from = m.begin;
        if (shallow_from == 0 && m.begin + m.indent < m.end && text[m.begin + m.indent] == '#' &&
            m.indent <= item.indent) {
          shallow_from = m.begin;
        }
        at = m.end;
        continue;
      }
      if (column == std::string_view::npos) {
        if (!starts(m, "- ")) return std::nullopt;
        column = m.indent;
      }
      if (m.indent < column || (m.indent == column && !starts(m, "- "))) {
        at = m.begin;
        break;  // the end
      }
      if (m.indent == column) {
        if (!close(m.begin)) return std::nullopt;
        std::size_t begin = m.begin + m.indent + 2;
        std::size_t content = text.find_first_not_of(' ', begin);
        if (content == std::string_view::npos || content != begin ||
            std::string_view("\n#-|>").find(text[content]) != std::string_view::npos) {
          // "-" alone, a comment, a nested sequence, a block scalar (whose lines
          // may stand left of an item's keys): leave it to split()
          return std::nullopt;
        }
        item = Item{begin, m.end, column + 2, out.stream_.size(), 0};
        open = true;
        out.stream_ += "---\n";  // a document starts at its marker
        out.stream_.append(text.substr(begin, m.end - begin));
      } else {
        if (blank_from != 0 && !unindent(text.substr(blank_from, m.begin - blank_from), item.indent,
                                         true, out.stream_)) {
          return std::nullopt;
        }
        if (m.indent < item.indent) return std::nullopt;  // less indented than its item
        out.stream_.append(text.substr(m.begin + item.indent, m.end - m.begin - item.indent));
        item.end = m.end;
      }
      blank_from = 0;
      shallow_from = 0;
      at = m.end;
    }
    if (!close(at)) return std::nullopt;
  }
  // The rest of the list, at the same lines: every item's line made empty.
  out.skeleton_.reserve(text.size() / 16);
  std::size_t from = 0;
  for (const Item& it : out.items_) {
    std::size_t line_start = it.begin;
    while (line_start > 0 && text[line_start - 1] != '\n')
      --line_start;
    out.skeleton_.append(text.substr(from, line_start - from));
    out.skeleton_.append(static_cast<std::size_t>(
                             std::count(text.begin() + line_start, text.begin() + it.end, '\n')),
                         '\n');
    from = it.end;
  }
  out.skeleton_.append(text.substr(from));
  return out;
}

void ResourceListItems::join(std::string_view text, std::string_view stream, const Splices& edits,
                             const std::function<void(std::string_view)>& put) const {
  const Splices::List& all = edits.replacements();
  std::size_t pos = 0;  // of `text`, handed out up to here
  // An item's replacements: a range within it, or an insertion after its
  // start up to its end (where one item ends and the next starts, the first:
  // nothing is written before a document's "---" line).
  auto in = [](const Splices::Replacement& r, const Item& item) {
    return r.begin == r.end ? item.stream_begin < r.begin && r.begin <= item.stream_end
                            : item.stream_begin <= r.begin && r.end <= item.stream_end;
  };
  for (std::size_t i = 0; i < all.size();) {
    auto it =
        std::lower_bound(items_.begin(), items_.end(), all[i].begin,
                         [](const Item& item, std::size_t at) { return item.stream_end < at; });
    if (it != items_.end() && !in(all[i], *it)) ++it;
    if (it == items_.end() || !in(all[i], *it)) {
      fail(ErrorKind::Internal, "an edit of the ResourceList's items spans more than one item");
    }
    const Item& item = *it;
    // The item's document as edited, after its "---" line: the stream's
    // bytes between the item's replacements, and theirs.
    std::size_t content = item.stream_begin + 4 + item.pad;
    std::string_view inserted = all[i].text;
    std::string_view marker =
        stream.substr(all[i].begin, std::max(all[i].begin, content) - all[i].begin);
    if (!inserted.starts_with(marker) ||
        all[i].end < std::min(all[i].begin + marker.size(), content)) {
      fail(ErrorKind::Internal, "an edit of a ResourceList item took its document marker");
    }
    inserted.remove_prefix(marker.size());
    if (item.begin > pos) put(text.substr(pos, item.begin - pos));
    Indenter indent(item.indent, put);
    indent.add(stream.substr(content, std::max(all[i].begin, content) - content));
    indent.add(inserted);
    std::size_t at = all[i].end;  // of `stream`, taken up to here
    for (++i; i < all.size() && in(all[i], item); ++i) {
      indent.add(stream.substr(at, all[i].begin - at));
      indent.add(all[i].text);
      at = all[i].end;
    }
    indent.add(stream.substr(at, item.stream_end - at));
    // The item's region ends as it did: with a line break or without.
    indent.finish(item.end == item.begin || text[item.end - 1] == '\n');
    pos = item.end;
  }
  if (pos < text.size()) put(text.substr(pos));
}

std::string ResourceListItems::join(std::string_view text, std::string_view stream,
                                    const Splices& edits) const {
  std::string out;
  join(text, stream, edits, [&out](std::string_view part) { out += part; });
  return out;
}

}  // namespace archfit::surface::krm
