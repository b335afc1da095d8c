// The items of a list as a stream of documents, so that the run analyses
// them as it does a file's documents (in parallel windows), and each edited
// item put back in its place (docs/architecture.md, "Lists"). Each item is
// cut out of the list's text with what stood before it on its line, every
// other byte kept; putting it back gives the indentation again, so an item
// the run leaves alone, and every byte of an edited one the edit does not
// touch, stays as it was.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <archfit/yaml/list_items.hpp>

namespace archfit::run {

class ItemStream {
 public:
  // The items yaml::list_items found in a list document's `text`, each as it
  // is, after as many spaces as stood before it on its line: every line and
  // column of an item stays where it was. Nothing when something other than
  // spaces and "- " stands before an item on its line.
  static std::optional<ItemStream> cut(std::string_view text,
                                       const std::vector<yaml::ListItem>& items);
  // Item i's place in the list's text.
  std::size_t item_begin(std::size_t i) const { return items_.at(i).begin; }
  std::size_t item_end(std::size_t i) const { return items_.at(i).end; }
  // The columns item i's first line lacks in its document (`found`: what
  // cut() was given for it): none, but for a flow item far along its line,
  // which is not padded to its column.
  std::size_t item_shift(std::size_t i, const yaml::ListItem& found) const;
  static constexpr std::size_t kMostPad = 1024;
  // What item i's place in `text` holds once its document reads `edited` (a
  // document of the stream as edited, from its "---" line).
  std::string item_text(std::size_t i, std::string_view text, std::string_view edited) const;

  // The items, each a document after a "---" line; document i is item i.
  const std::string& stream() const { return stream_; }
  std::size_t size() const { return items_.size(); }

  // Item i's document in `stream` (stream() as it was made).
  std::string_view document(std::string_view stream, std::size_t i) const {
    const Item& it = items_.at(i);
    return stream.substr(it.stream_begin, it.stream_end - it.stream_begin);
  }

  // The stream, moved out (the run may hold it).
  std::string take_stream() { return std::move(stream_); }

 protected:
  struct Item {
    std::size_t begin = 0;  // in the list's text: the item's first character...
    std::size_t end = 0;    // ... to the end of its last line
    std::size_t indent = 0;
    std::size_t stream_begin = 0;  // the same item in stream()
    std::size_t stream_end = 0;
    std::size_t pad = 0;  // cut(): spaces after its "---" line, for what stood before it
  };
  std::vector<Item> items_;
  std::string stream_;
};

}  // namespace archfit::run
