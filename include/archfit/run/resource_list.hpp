// The items of a KRM ResourceList as a stream of documents, so that the run
// analyses them as it does a file's documents (in parallel windows), and the
// edited documents put back in place. Each item is cut out of the
// ResourceList's text with its indentation taken off, every other byte kept;
// putting it back adds the indentation again, so an item the run leaves
// alone, and every byte of an edited one the edit does not touch, stays as
// it was.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <archfit/base/splices.hpp>
#include <archfit/yaml/list_items.hpp>
#include <archfit/yaml/node.hpp>

namespace archfit::run {

class ResourceListItems {
 public:
  // The items of `items` (the ResourceList's `items` node, parsed from
  // `text`), or nothing when they cannot be cut out exactly: flow style, or a
  // line indented less than its item.
  static std::optional<ResourceListItems> split(std::string_view text, yaml::NodeRef items);

  // The same without parsing the whole list first: a line scan of a block
  // `items:` sequence at the top of a block mapping (YAML's indentation rules
  // make the scan exact: a line at the sequence's column is an item's start
  // or the sequence's end). Also gives skeleton(): the text with the items'
  // lines blanked, to read the rest (kind, functionConfig, results) from at
  // the same lines. Nothing when the text is not shaped so; each item is
  // parsed when the run analyses it, and split() remains for the rest.
  static std::optional<ResourceListItems> scan(std::string_view text);
  const std::string& skeleton() const { return skeleton_; }

  // The items yaml::list_items found in a list document's `text`, each as it
  // is, after as many spaces as stood before it on its line: every line and
  // column of an item stays where it was. Nothing when something other than
  // spaces and "- " stands before an item on its line.
  static std::optional<ResourceListItems> cut(std::string_view text,
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

  // Item i's document in `stream` (stream() as it was split).
  std::string_view document(std::string_view stream, std::size_t i) const {
    const Item& it = items_.at(i);
    return stream.substr(it.stream_begin, it.stream_end - it.stream_begin);
  }

  // The stream, moved out (the run may hold it; join() then takes it back as
  // `stream`).
  std::string take_stream() { return std::move(stream_); }

  // The ResourceList's `text` with each item the stream's `edits` changed put
  // back, indented as it was, handed to `put` piece by piece: pieces of
  // `text`, and each new item indented in a buffer reused for the next, so
  // that the new list is never held whole. `stream` is stream() as it was
  // split.
  void join(std::string_view text, std::string_view stream, const Splices& edits,
            const std::function<void(std::string_view)>& put) const;
  // The same in one string.
  std::string join(std::string_view text, std::string_view stream, const Splices& edits) const;
  std::string join(std::string_view text, const Splices& edits) const {
    return join(text, stream_, edits);
  }

 private:
  struct Item {
    std::size_t begin = 0;  // in the ResourceList's text: the item's first character...
    std::size_t end = 0;    // ... to the end of its last line
    std::size_t indent = 0;
    std::size_t stream_begin = 0;  // the same item in stream()
    std::size_t stream_end = 0;
    std::size_t pad = 0;  // cut(): spaces after its "---" line, for what stood before it
  };
  bool add(std::string_view text, std::size_t begin, std::size_t end, std::size_t indent);

  std::vector<Item> items_;
  std::string stream_;
  std::string skeleton_;
};

}  // namespace archfit::run
