#include <algorithm>

#include <archfit/base/error.hpp>
#include <archfit/run/resource_list.hpp>

namespace archfit::run {

namespace {

// Each line of `text` after the first that is not empty loses (`indent` > 0)
// or gains `indent` spaces. Returns false when a line to lose them lacks them.
bool shift(std::string_view text, std::size_t indent, bool take, std::string& out) {
  const std::string pad(indent, ' ');
  std::size_t at = 0;
  bool first = true;
  while (at < text.size()) {
    std::size_t nl = text.find('\n', at);
    std::size_t end = nl == std::string_view::npos ? text.size() : nl + 1;
    std::string_view line = text.substr(at, end - at);
    bool empty = line == "\n" || line.empty();
    if (first || empty) {
      out += line;
    } else if (take) {
      if (line.substr(0, indent) != pad) return false;
      out += line.substr(indent);
    } else {
      out += pad;
      out += line;
    }
    first = false;
    at = end;
  }
  return true;
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
    Item it;
    it.begin = item.span().begin;
    it.end = item.span().end;
    if (it.end > 0 && text[it.end - 1] != '\n') {
      std::size_t nl = text.find('\n', it.end);
      it.end = nl == std::string_view::npos ? text.size() : nl + 1;
    }
    // What stands before the item on its line: spaces and the sequence's "- ".
    std::size_t line_start = it.begin;
    while (line_start > 0 && text[line_start - 1] != '\n')
      --line_start;
    std::string_view before = text.substr(line_start, it.begin - line_start);
    if (before.find_first_not_of(" -") != std::string_view::npos) return std::nullopt;
    it.indent = before.size();
    it.stream_begin = out.stream_.size();  // a document starts at its marker
    out.stream_ += "---\n";
    if (!shift(text.substr(it.begin, it.end - it.begin), it.indent, true, out.stream_)) {
      return std::nullopt;
    }
    if (out.stream_.back() != '\n') out.stream_ += '\n';
    it.stream_end = out.stream_.size();
    out.items_.push_back(it);
  }
  return out;
}

std::string ResourceListItems::join(std::string_view text, const Splices& edits) const {
  Splices back;
  for (const Splices::Replacement& r : edits.replacements()) {
    auto it =
        std::upper_bound(items_.begin(), items_.end(), r.begin,
                         [](std::size_t at, const Item& item) { return at < item.stream_begin; });
    if (it == items_.begin() || r.end > std::prev(it)->stream_end) {
      fail(ErrorKind::Internal, "an edit of the ResourceList's items spans more than one item");
    }
    const Item& item = *std::prev(it);
    std::string doc = stream_.substr(item.stream_begin, r.begin - item.stream_begin) + r.text +
                      stream_.substr(r.end, item.stream_end - r.end);
    if (!doc.starts_with("---\n")) {
      fail(ErrorKind::Internal, "an edit of a ResourceList item took its document marker");
    }
    doc.erase(0, 4);
    std::string indented;
    shift(doc, item.indent, false, indented);
    // The item's region ended at a line end; so does its new text.
    if (item.end > item.begin && text[item.end - 1] != '\n' && !indented.empty() &&
        indented.back() == '\n') {
      indented.pop_back();
    }
    back.replace(item.begin, item.end - item.begin, std::move(indented));
  }
  return back.apply(text);
}

}  // namespace archfit::run
