// The items of a KRM ResourceList as a stream of documents (run/item_stream.hpp),
// so that the session analyses them as it does a file's documents, and the
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
#include <archfit/run/item_stream.hpp>
#include <archfit/yaml/node.hpp>

namespace archfit::surface::krm {

class ResourceListItems : public run::ItemStream {
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
  bool add(std::string_view text, std::size_t begin, std::size_t end, std::size_t indent);

  std::string skeleton_;
};

}  // namespace archfit::surface::krm
