#include <algorithm>

#include <archfit/base/error.hpp>
#include <archfit/yaml/node.hpp>

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

NodeRef lookup_at(NodeRef mapping, std::string_view key, NodeRef* merged_by, int depth) {
  mapping = mapping.resolved();
  if (depth > kMaxMergeDepth || !mapping.is_mapping()) return {};
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
    NodeRef sources = mapping.value(i).resolved();
    std::size_t n = sources.is_sequence() ? sources.size() : 1;
    for (std::size_t j = 0; j < n; ++j) {
      NodeRef source = sources.is_sequence() ? sources.item(j) : sources;
      if (NodeRef found = lookup_at(source, key, nullptr, depth + 1)) {
        if (merged_by != nullptr) *merged_by = mapping.key(i);
        return found;
      }
    }
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
