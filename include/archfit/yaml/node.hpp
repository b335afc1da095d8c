// The parsed form of one YAML document: a tree of nodes that remember where
// they came from. Every node carries its byte span in the document text, so
// that edits can be spliced into the original bytes, and its line and column
// for messages. Trees are immutable once built; NodeRef is a cheap handle.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <archfit/yaml/scalar.hpp>

namespace archfit::yaml {

enum class Kind : std::uint8_t { Scalar, Sequence, Mapping, Alias };

// Plain/quoted/literal/folded for scalars, Block/Flow for collections.
enum class Style : std::uint8_t { Plain, SingleQuoted, DoubleQuoted, Literal, Folded, Block, Flow };

using NodeId = std::uint32_t;
inline constexpr NodeId kNoNode = 0xffffffffu;

// [begin, end) in bytes of the document text. For block collections `end` is
// the end of their last descendant (libyaml's own end mark lies after any
// trailing blank lines and comments). Block scalars end where libyaml says:
// at the start of the line after their last content line.
struct Span {
  std::uint32_t begin = 0;
  std::uint32_t end = 0;
};

struct Node {
  Kind kind = Kind::Scalar;
  Style style = Style::Plain;
  bool value_in_text = false;  // scalar value is text[value_offset, +value_length)
  bool has_props = false;      // has a tag or an anchor (see Tree::tag / Tree::anchor)
  Span span;
  std::uint32_t line = 0;    // 1-based, in the file
  std::uint32_t column = 0;  // 1-based, in characters
  std::uint32_t value_offset = 0;
  std::uint32_t value_length = 0;
  std::uint32_t first_child = 0;  // index into Tree::children (alias: the target node id)
  std::uint32_t child_count = 0;  // items; for a mapping 2 x entries (key, value, key, value...)
};

class Tree;

class NodeRef {
 public:
  NodeRef() = default;
  NodeRef(const Tree* tree, NodeId id) : tree_(tree), id_(id) {}

  explicit operator bool() const { return tree_ != nullptr && id_ != kNoNode; }
  bool operator==(const NodeRef& other) const { return tree_ == other.tree_ && id_ == other.id_; }

  NodeId id() const { return id_; }
  const Tree* tree() const { return tree_; }
  const Node& node() const;

  Kind kind() const { return node().kind; }
  Style style() const { return node().style; }
  bool is_scalar() const { return *this && kind() == Kind::Scalar; }
  bool is_sequence() const { return *this && kind() == Kind::Sequence; }
  bool is_mapping() const { return *this && kind() == Kind::Mapping; }
  bool is_alias() const { return *this && kind() == Kind::Alias; }

  // Scalar value after unescaping and folding; "" for other kinds.
  std::string_view scalar() const;
  // The scalar's type as Kubernetes reads it (tag and style considered).
  Resolved resolve() const;
  // True for a scalar that reads as a string (quoted, tagged !!str, or a plain
  // word that is not null/bool/number).
  bool is_string() const;
  // True for a scalar that reads as null (`~`, `null`, empty).
  bool is_null() const;

  // Explicit tag as libyaml reports it ("!!str" reads "tag:yaml.org,2002:str",
  // "!foo" stays "!foo"); "" if none.
  std::string_view tag() const;
  std::string_view anchor() const;  // "" if none
  NodeRef target() const;           // alias -> anchored node; null otherwise
  NodeRef resolved() const;         // follows an alias; itself otherwise

  Span span() const { return node().span; }
  std::uint32_t line() const { return node().line; }
  std::uint32_t column() const { return node().column; }
  // The node's source text.
  std::string_view text() const;

  // Sequences: items. Mappings: entries.
  std::size_t size() const;
  NodeRef item(std::size_t i) const;
  NodeRef key(std::size_t i) const;
  NodeRef value(std::size_t i) const;
  // Value of the last entry whose key is the string `key` (duplicate keys: the
  // last one wins, as Kubernetes reads them). Null if absent or not a mapping.
  NodeRef get(std::string_view key) const;
  // Index of that entry, or npos.
  std::size_t find(std::string_view key) const;

  static constexpr std::size_t npos = static_cast<std::size_t>(-1);

 private:
  const Tree* tree_ = nullptr;
  NodeId id_ = kNoNode;
};

// One parsed document. Holds a view of the text it was parsed from; that text
// must outlive the tree. NodeRefs point at the tree: do not move a tree that
// has handles out (keep it in place or behind a unique_ptr).
class Tree {
 public:
  Tree();
  Tree(const Tree&) = delete;
  Tree& operator=(const Tree&) = delete;
  Tree(Tree&&) noexcept;
  Tree& operator=(Tree&&) noexcept;
  // Gives its node and child arrays to the next trees this thread builds
  // (a run builds two for every edited document: see tree_storage.cpp).
  ~Tree();

  // Null for a document without content (only comments or `---` alone are an
  // empty plain scalar, which is not null here: see NodeRef::is_null).
  NodeRef root() const { return NodeRef(this, root_); }
  std::string_view text() const { return text_; }
  std::size_t node_count() const { return nodes_.size(); }

  const Node& node(NodeId id) const { return nodes_[id]; }
  NodeId child(std::uint32_t index) const { return children_[index]; }
  std::string_view value_of(const Node& node) const;
  std::string_view tag_of(NodeId id) const;
  std::string_view anchor_of(NodeId id) const;

  // Mappings with more keys than this are looked up through an index of
  // their keys (key_indexes.cpp), made the first time one is asked for.
  static constexpr std::uint32_t kScannedKeys = 16;
  // The indexes of a tree's large mappings; exists when it has any.
  class KeyIndexes;
  KeyIndexes* key_indexes() const { return key_indexes_.get(); }

 private:
  friend class TreeBuilder;
  friend class Grafter;

  // Makes the holder of key indexes when a mapping of `entries` needs one.
  void note_mapping(std::uint32_t entries);

  // Empty arrays with room for at least `nodes` nodes and `children` child
  // ids, spare ones of this thread's when it has them.
  void reserve(std::size_t nodes, std::size_t children);

  struct Props {
    NodeId node;
    std::string tag;
    std::string anchor;
  };

  std::string_view text_;
  NodeId root_ = kNoNode;
  std::vector<Node> nodes_;
  std::vector<NodeId> children_;
  std::string arena_;         // scalar values that differ from their source text
  std::vector<Props> props_;  // sorted by node id
  std::unique_ptr<KeyIndexes> key_indexes_;
};

// NodeRef's and Tree's accessors that every walk over a tree calls, inline.

inline const Node& NodeRef::node() const {
  return tree_->node(id_);
}

inline std::string_view NodeRef::scalar() const {
  if (!*this) return {};
  const Node& n = node();
  if (n.kind != Kind::Scalar) return {};
  return tree_->value_of(n);
}

inline NodeRef NodeRef::target() const {
  if (!is_alias()) return {};
  return NodeRef(tree_, node().first_child);
}

inline NodeRef NodeRef::resolved() const {
  return is_alias() ? target() : *this;
}

inline std::string_view NodeRef::text() const {
  if (!*this) return {};
  Span s = node().span;
  return tree_->text().substr(s.begin, s.end - s.begin);
}

inline std::size_t NodeRef::size() const {
  if (!*this) return 0;
  const Node& n = node();
  switch (n.kind) {
    case Kind::Sequence:
      return n.child_count;
    case Kind::Mapping:
      return n.child_count / 2;
    default:
      return 0;
  }
}

inline NodeRef NodeRef::item(std::size_t i) const {
  if (!is_sequence() || i >= node().child_count) return {};
  return NodeRef(tree_, tree_->child(node().first_child + static_cast<std::uint32_t>(i)));
}

inline NodeRef NodeRef::key(std::size_t i) const {
  if (!is_mapping() || 2 * i >= node().child_count) return {};
  return NodeRef(tree_, tree_->child(node().first_child + static_cast<std::uint32_t>(2 * i)));
}

inline NodeRef NodeRef::value(std::size_t i) const {
  if (!is_mapping() || 2 * i + 1 >= node().child_count) return {};
  return NodeRef(tree_, tree_->child(node().first_child + static_cast<std::uint32_t>(2 * i + 1)));
}

inline std::string_view Tree::value_of(const Node& n) const {
  const std::string_view source = n.value_in_text ? text_ : std::string_view(arena_);
  return source.substr(n.value_offset, n.value_length);
}

// True for a `<<` merge key (plain, untagged).
bool is_merge_key(NodeRef key);

// The value under `key` in a mapping as Kubernetes reads it: the mapping's own
// entry, else one merged in through a `<<` key (`<<: *a` or `<<: [*a, *b]`,
// the first source that has it). When it came through a merge key and
// `merged_by` is given, that is set to the `<<` key. Null when absent.
NodeRef lookup(NodeRef mapping, std::string_view key, NodeRef* merged_by = nullptr);

// The value at `path` below `node`, as Kubernetes reads it: each step a
// lookup() in a mapping, aliases followed. Null when a step is missing or
// what it reaches is not a mapping.
NodeRef lookup_path(NodeRef node, std::initializer_list<std::string_view> path);

// A scalar's text; "" for anything else (a mapping, a sequence, nothing).
std::string scalar_text(NodeRef node);

// Throws Error(Input) with `message` at the node's line and column (the
// reader of the stream adds the file): a value that is not what its field
// allows.
[[noreturn]] void fail_at(NodeRef at, const std::string& message);

}  // namespace archfit::yaml
