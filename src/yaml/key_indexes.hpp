// The indexes of a tree's large mappings. Internal to the yaml module.
//
// A mapping of more than Tree::kScannedKeys entries is looked up through an
// index of its keys, made the first time it is asked for and kept with the
// tree: NodeRef::find and lookup() by the keys as written, find_key() by the
// keys as data (key_text). Trees are read by several threads at once (a
// stream's pools by every thread that checks templates against them), so an
// index is made under the holder's lock and never changes after.
#pragma once

#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <archfit/base/key_index.hpp>
#include <archfit/yaml/node.hpp>

namespace archfit::yaml {

class Tree::KeyIndexes {
 public:
  // The index of the keys as written (resolved scalar keys only), and the
  // places of the merge keys (`<<`).
  struct Written {
    KeyIndex keys;
    std::vector<std::size_t> merges;
  };
  // The index of the keys as data: key_text of each key.
  struct AsData {
    KeyIndex keys;
    std::vector<std::string_view> text;  // of each entry
    std::deque<std::string> made;        // texts that are not the key's own
  };
  using KeyText = std::function<std::string(NodeRef)>;

  const Written& written(NodeRef mapping);
  // `key_text` gives a key's text when it is not the key's scalar as written.
  const AsData& as_data(NodeRef mapping, const KeyText& key_text);

 private:
  struct Both {
    std::unique_ptr<Written> written;
    std::unique_ptr<AsData> as_data;
  };
  std::mutex mutex_;
  std::unordered_map<NodeId, Both> of_;
};

// The entry of `mapping` whose resolved scalar key is `key` (the last one),
// or npos: NodeRef::find for a large mapping.
std::size_t find_written(NodeRef mapping, std::string_view key);

}  // namespace archfit::yaml
