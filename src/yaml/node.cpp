#include <algorithm>

#include <archfit/base/error.hpp>
#include <archfit/yaml/node.hpp>

#include "yaml/key_indexes.hpp"

namespace archfit::yaml {

std::string_view NodeRef::tag() const {
  return *this ? tree_->tag_of(id_) : std::string_view();
}
std::string_view NodeRef::anchor() const {
  return *this ? tree_->anchor_of(id_) : std::string_view();
}

std::size_t NodeRef::find(std::string_view wanted) const {
  if (!is_mapping()) return npos;
  const Node& n = node();
  if (n.child_count / 2 > Tree::kScannedKeys && tree_->key_indexes() != nullptr)
    return find_written(*this, wanted);
  std::size_t found = npos;
  for (std::uint32_t i = 0; i < n.child_count; i += 2) {
    NodeRef k = NodeRef(tree_, tree_->child(n.first_child + i)).resolved();
    if (k.is_scalar() && k.scalar() == wanted) found = i / 2;
  }
  return found;
}

NodeRef NodeRef::get(std::string_view wanted) const {
  std::size_t i = find(wanted);
  return i == npos ? NodeRef() : value(i);
}

namespace {
template <typename Props>
auto find_props(const Props& props, NodeId id) {
  return std::lower_bound(props.begin(), props.end(), id,
                          [](const auto& p, NodeId wanted) { return p.node < wanted; });
}
}  // namespace

std::string_view Tree::tag_of(NodeId id) const {
  if (!nodes_[id].has_props) return {};
  auto it = find_props(props_, id);
  return it != props_.end() && it->node == id ? std::string_view(it->tag) : std::string_view();
}

std::string_view Tree::anchor_of(NodeId id) const {
  if (!nodes_[id].has_props) return {};
  auto it = find_props(props_, id);
  return it != props_.end() && it->node == id ? std::string_view(it->anchor) : std::string_view();
}

bool is_merge_key(NodeRef key) {
  key = key.resolved();
  return key.is_scalar() && key.style() == Style::Plain && key.scalar() == "<<" &&
         key.tag().empty();
}

namespace {

// Merge sources nest rarely; the bound only stops an alias cycle
// (`&a {<<: *a}`) from recursing for ever.
constexpr int kMaxMergeDepth = 64;

// The value under `key` in merge key i's sources, the first that has it.
NodeRef in_merge_sources(NodeRef mapping, std::size_t i, std::string_view key, int depth);

NodeRef lookup_at(NodeRef mapping, std::string_view key, NodeRef* merged_by, int depth) {
  mapping = mapping.resolved();
  if (depth > kMaxMergeDepth || !mapping.is_mapping()) return {};
  if (mapping.size() > Tree::kScannedKeys && mapping.tree()->key_indexes() != nullptr) {
    if (std::size_t own = find_written(mapping, key); own != NodeRef::npos)
      return mapping.value(own);
    for (std::size_t i : mapping.tree()->key_indexes()->written(mapping).merges) {
      if (NodeRef found = in_merge_sources(mapping, i, key, depth)) {
        if (merged_by != nullptr) *merged_by = mapping.key(i);
        return found;
      }
    }
    return {};
  }
  // One pass: the mapping's own entry (the last one, as get() reads it), and
  // where its merge keys are, for when it has none.
  std::size_t own = NodeRef::npos;
  std::size_t first_merge = NodeRef::npos;
  for (std::size_t i = 0; i < mapping.size(); ++i) {
    NodeRef k = mapping.key(i).resolved();
    if (!k.is_scalar()) continue;
    std::string_view text = k.scalar();
    if (text == key) {
      own = i;
    } else if (first_merge == NodeRef::npos && text == "<<" && is_merge_key(k)) {
      first_merge = i;
    }
  }
  if (own != NodeRef::npos) return mapping.value(own);
  if (first_merge == NodeRef::npos) return {};
  for (std::size_t i = first_merge; i < mapping.size(); ++i) {
    if (!is_merge_key(mapping.key(i))) continue;
    if (NodeRef found = in_merge_sources(mapping, i, key, depth)) {
      if (merged_by != nullptr) *merged_by = mapping.key(i);
      return found;
    }
  }
  return {};
}

NodeRef in_merge_sources(NodeRef mapping, std::size_t i, std::string_view key, int depth) {
  NodeRef sources = mapping.value(i).resolved();
  std::size_t n = sources.is_sequence() ? sources.size() : 1;
  for (std::size_t j = 0; j < n; ++j) {
    NodeRef source = sources.is_sequence() ? sources.item(j) : sources;
    if (NodeRef found = lookup_at(source, key, nullptr, depth + 1)) return found;
  }
  return {};
}

}  // namespace

NodeRef lookup(NodeRef mapping, std::string_view key, NodeRef* merged_by) {
  return lookup_at(mapping, key, merged_by, 0);
}

NodeRef lookup_path(NodeRef node, std::initializer_list<std::string_view> path) {
  node = node.resolved();
  for (std::string_view key : path) {
    if (!node.is_mapping()) return NodeRef();
    node = lookup(node, key).resolved();
  }
  return node;
}

std::string scalar_text(NodeRef node) {
  return node.is_scalar() ? std::string(node.scalar()) : std::string();
}

void fail_at(NodeRef at, const std::string& message) {
  fail(ErrorKind::Input, message, Location{"", at.line(), at.column()});
}

}  // namespace archfit::yaml
