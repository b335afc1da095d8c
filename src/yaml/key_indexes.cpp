#include "yaml/key_indexes.hpp"

namespace archfit::yaml {

const Tree::KeyIndexes::Written& Tree::KeyIndexes::written(NodeRef mapping) {
  std::lock_guard lock(mutex_);
  std::unique_ptr<Written>& slot = of_[mapping.id()].written;
  if (slot) return *slot;
  auto index = std::make_unique<Written>();
  auto key_at = [&mapping](std::uint32_t i) { return mapping.key(i).resolved().scalar(); };
  index->keys.reserve(mapping.size());
  for (std::size_t i = 0; i < mapping.size(); ++i) {
    NodeRef k = mapping.key(i).resolved();
    if (!k.is_scalar()) continue;
    index->keys.put(k.scalar(), static_cast<std::uint32_t>(i), key_at);
    if (k.scalar() == "<<" && is_merge_key(k)) index->merges.push_back(i);
  }
  slot = std::move(index);
  return *slot;
}

const Tree::KeyIndexes::AsData& Tree::KeyIndexes::as_data(NodeRef mapping,
                                                          const KeyText& key_text) {
  std::lock_guard lock(mutex_);
  std::unique_ptr<AsData>& slot = of_[mapping.id()].as_data;
  if (slot) return *slot;
  auto index = std::make_unique<AsData>();
  index->text.reserve(mapping.size());
  for (std::size_t i = 0; i < mapping.size(); ++i) {
    NodeRef k = mapping.key(i).resolved();
    // Text keys (nearly all) are themselves, as find_key compares them.
    if (k.is_scalar() && k.style() != Style::Plain) {
      index->text.push_back(k.scalar());
    } else {
      index->text.push_back(index->made.emplace_back(key_text(k)));
    }
  }
  const std::vector<std::string_view>& text = index->text;
  auto key_at = [&text](std::uint32_t i) { return text[i]; };
  index->keys.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i)
    index->keys.put(text[i], static_cast<std::uint32_t>(i), key_at);
  slot = std::move(index);
  return *slot;
}

std::size_t find_written(NodeRef mapping, std::string_view key) {
  const Tree::KeyIndexes::Written& index = mapping.tree()->key_indexes()->written(mapping);
  std::uint32_t at = index.keys.find(
      key, [&mapping](std::uint32_t i) { return mapping.key(i).resolved().scalar(); });
  return at == KeyIndex::npos ? NodeRef::npos : at;
}

}  // namespace archfit::yaml
