#include <algorithm>
#include <cstring>
#include <string>
#include <unordered_map>

#include <archfit/base/error.hpp>
#include <archfit/base/text.hpp>
#include <archfit/yaml/parse.hpp>

#include "yaml/libyaml.hpp"
#include "yaml/offsets.hpp"

namespace archfit::yaml {

namespace {

constexpr std::string_view kBom = "\xEF\xBB\xBF";

Style scalar_style(yaml_scalar_style_t style) {
  switch (style) {
    case YAML_SINGLE_QUOTED_SCALAR_STYLE:
      return Style::SingleQuoted;
    case YAML_DOUBLE_QUOTED_SCALAR_STYLE:
      return Style::DoubleQuoted;
    case YAML_LITERAL_SCALAR_STYLE:
      return Style::Literal;
    case YAML_FOLDED_SCALAR_STYLE:
      return Style::Folded;
    default:
      return Style::Plain;
  }
}

}  // namespace

// Builds a Tree from libyaml events. Children of open collections wait on a
// scratch stack and are copied into the tree's child array when the collection
// closes, so each collection's children are contiguous.
class TreeBuilder {
 public:
  // `text` is the whole document; libyaml sees it from `skipped` on (after a BOM).
  TreeBuilder(std::string_view text, std::uint32_t skipped, std::uint32_t first_line,
              const Limits& limits)
      : text_(text),
        first_line_(first_line),
        limits_(limits),
        offsets_(text.substr(skipped)),
        skipped_(skipped) {
    tree_.text_ = text;
    tree_.reserve(text.size() / 12 + 8, text.size() / 12 + 8);
  }

  Tree build() {
    detail::Parser parser(text_.substr(skipped_));
    detail::Event event;
    bool seen_document = false;
    for (;;) {
      if (!event.next(parser)) throw_parse_error(parser);
      switch (event->type) {
        case YAML_STREAM_END_EVENT:
          return std::move(tree_);
        case YAML_DOCUMENT_START_EVENT:
          if (seen_document) {
            fail(ErrorKind::Syntax, "cannot parse YAML: more than one document in one piece",
                 location(event->start_mark));
          }
          seen_document = true;
          break;
        case YAML_SCALAR_EVENT:
          add_scalar(*event);
          break;
        case YAML_ALIAS_EVENT:
          add_alias(*event);
          break;
        case YAML_SEQUENCE_START_EVENT:
          open(*event, Kind::Sequence, event->data.sequence_start.anchor,
               event->data.sequence_start.tag,
               event->data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE);
          break;
        case YAML_MAPPING_START_EVENT:
          open(*event, Kind::Mapping, event->data.mapping_start.anchor,
               event->data.mapping_start.tag,
               event->data.mapping_start.style == YAML_FLOW_MAPPING_STYLE);
          break;
        case YAML_SEQUENCE_END_EVENT:
        case YAML_MAPPING_END_EVENT:
          close(*event);
          break;
        default:
          break;
      }
    }
  }

 private:
  struct Open {
    NodeId id;
    std::uint32_t scratch_start;
  };

  Location location(const yaml_mark_t& mark) const {
    Location where;
    where.line = first_line_ + static_cast<std::uint32_t>(mark.line) + 1;
    where.column = static_cast<std::uint32_t>(mark.column) + 1;
    return where;
  }

  std::uint32_t byte_at(const yaml_mark_t& mark) {
    return offsets_.byte_offset(mark.index) + skipped_;
  }

  NodeId new_node(const yaml_event_t& event, Kind kind) {
    if (tree_.nodes_.size() >= kNoNode - 1) {
      fail(ErrorKind::Input, "cannot parse YAML: too many nodes in one document",
           location(event.start_mark));
    }
    NodeId id = static_cast<NodeId>(tree_.nodes_.size());
    Node& n = tree_.nodes_.emplace_back();
    n.kind = kind;
    n.span.begin = byte_at(event.start_mark);
    n.span.end = byte_at(event.end_mark);
    n.line = first_line_ + static_cast<std::uint32_t>(event.start_mark.line) + 1;
    n.column = static_cast<std::uint32_t>(event.start_mark.column) + 1;
    if (stack_.empty()) {
      tree_.root_ = id;
    } else {
      scratch_.push_back(id);
    }
    return id;
  }

  void set_props(NodeId id, const yaml_char_t* anchor, const yaml_char_t* tag) {
    if (anchor == nullptr && tag == nullptr) return;
    tree_.nodes_[id].has_props = true;
    Tree::Props& p = tree_.props_.emplace_back();
    p.node = id;
    if (tag != nullptr) p.tag = reinterpret_cast<const char*>(tag);
    if (anchor != nullptr) {
      p.anchor = reinterpret_cast<const char*>(anchor);
      anchors_[p.anchor] = id;
    }
  }

  void add_scalar(const yaml_event_t& event) {
    NodeId id = new_node(event, Kind::Scalar);
    Node& n = tree_.nodes_[id];
    n.style = scalar_style(event.data.scalar.style);
    const char* value = reinterpret_cast<const char*>(event.data.scalar.value);
    std::size_t length = event.data.scalar.length;
    if (n.span.end - n.span.begin == length &&
        std::memcmp(text_.data() + n.span.begin, value, length) == 0) {
      n.value_in_text = true;
      n.value_offset = n.span.begin;
    } else {
      n.value_offset = static_cast<std::uint32_t>(tree_.arena_.size());
      tree_.arena_.append(value, length);
    }
    n.value_length = static_cast<std::uint32_t>(length);
    set_props(id, event.data.scalar.anchor, event.data.scalar.tag);
  }

  void add_alias(const yaml_event_t& event) {
    std::string name = reinterpret_cast<const char*>(event.data.alias.anchor);
    auto it = anchors_.find(name);
    if (it == anchors_.end()) {
      fail(ErrorKind::Syntax,
           "cannot parse YAML: alias *" + name + " refers to an anchor &" + name +
               " that is not defined before it",
           location(event.start_mark));
    }
    NodeId id = new_node(event, Kind::Alias);
    Node& n = tree_.nodes_[id];
    n.first_child = it->second;
    n.value_offset = static_cast<std::uint32_t>(tree_.arena_.size());
    n.value_length = static_cast<std::uint32_t>(name.size());
    tree_.arena_ += name;
  }

  void open(const yaml_event_t& event, Kind kind, const yaml_char_t* anchor, const yaml_char_t* tag,
            bool flow) {
    if (stack_.size() >= limits_.max_depth) {
      fail(
          ErrorKind::Input,
          "cannot parse YAML: nesting deeper than " + std::to_string(limits_.max_depth) + " levels",
          location(event.start_mark));
    }
    NodeId id = new_node(event, kind);
    tree_.nodes_[id].style = flow ? Style::Flow : Style::Block;
    set_props(id, anchor, tag);
    stack_.push_back(Open{id, static_cast<std::uint32_t>(scratch_.size())});
  }

  void close(const yaml_event_t& event) {
    Open top = stack_.back();
    stack_.pop_back();
    Node& n = tree_.nodes_[top.id];
    n.first_child = static_cast<std::uint32_t>(tree_.children_.size());
    n.child_count = static_cast<std::uint32_t>(scratch_.size() - top.scratch_start);
    tree_.children_.insert(tree_.children_.end(), scratch_.begin() + top.scratch_start,
                           scratch_.end());
    scratch_.resize(top.scratch_start);
    if (n.style == Style::Flow) {
      n.span.end = byte_at(event.end_mark);
    } else if (n.child_count > 0) {
      // libyaml ends a block collection where the next token starts, after
      // blank lines and comments; end it at its last child instead.
      n.span.end = tree_.nodes_[tree_.children_.back()].span.end;
    }
    if (n.kind == Kind::Mapping) {
      tree_.note_mapping(n.child_count / 2);
      if (limits_.reject_duplicate_keys) reject_duplicate_keys(n);
    }
  }

  // Kubernetes decodes strictly: a key given twice in one mapping is an
  // error there, so it is one here, not a silent "the last one wins".
  void reject_duplicate_keys(const Node& mapping) {
    std::uint32_t entries = mapping.child_count / 2;
    if (entries < 2) return;
    keys_.clear();
    for (std::uint32_t i = 0; i < entries; ++i) {
      const Node& key = tree_.nodes_[tree_.children_[mapping.first_child + 2 * i]];
      if (key.kind == Kind::Scalar) keys_.emplace_back(tree_.value_of(key), &key);
    }
    auto first_of = [this](std::size_t at) -> const Node* {
      for (std::size_t j = 0; j < at; ++j) {
        if (keys_[j].first == keys_[at].first) return keys_[j].second;
      }
      return nullptr;
    };
    if (keys_.size() <= 16) {
      for (std::size_t i = 1; i < keys_.size(); ++i) {
        if (const Node* first = first_of(i)) duplicate_key(*first, *keys_[i].second);
      }
      return;
    }
    std::stable_sort(keys_.begin(), keys_.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (std::size_t i = 1; i < keys_.size(); ++i) {
      if (keys_[i].first == keys_[i - 1].first) {
        duplicate_key(*keys_[i - 1].second, *keys_[i].second);
      }
    }
  }

  [[noreturn]] void duplicate_key(const Node& first, const Node& second) const {
    Location where;
    where.line = second.line;
    where.column = second.column;
    fail(ErrorKind::Input,
         "duplicate key " + quoted(tree_.value_of(second)) + " (first at line " +
             std::to_string(first.line) + ", column " + std::to_string(first.column) +
             "): a key may be given only once in a mapping (the API server refuses manifests "
             "that repeat one); remove one of them",
         where);
  }

  [[noreturn]] void throw_parse_error(detail::Parser& parser) {
    yaml_parser_t* p = parser.get();
    std::string message = "cannot parse YAML: ";
    if (p->error == YAML_MEMORY_ERROR) {
      message += "out of memory";
    } else {
      message += p->problem != nullptr ? p->problem : "unknown error";
      if (p->context != nullptr) {
        message += " (";
        message += p->context;
        message += " that starts at line " +
                   std::to_string(first_line_ + p->context_mark.line + 1) + ", column " +
                   std::to_string(p->context_mark.column + 1) + ")";
      }
    }
    fail(ErrorKind::Syntax, std::move(message), location(p->problem_mark));
  }

  std::string_view text_;
  std::uint32_t first_line_;
  const Limits& limits_;
  detail::OffsetMap offsets_;
  std::uint32_t skipped_;
  Tree tree_;
  std::vector<Open> stack_;
  std::vector<NodeId> scratch_;
  std::unordered_map<std::string, NodeId> anchors_;
  std::vector<std::pair<std::string_view, const Node*>> keys_;  // scratch of reject_duplicate_keys
};

Tree parse_document(std::string_view text, std::uint32_t first_line, const Limits& limits) {
  if (text.size() > limits.max_document_bytes) {
    Location where;
    where.line = first_line + 1;
    fail(ErrorKind::Input,
         "document is " + std::to_string(text.size()) + " bytes, more than the limit of " +
             std::to_string(limits.max_document_bytes),
         where);
  }
  std::uint32_t skipped = text.substr(0, kBom.size()) == kBom ? kBom.size() : 0;
  return TreeBuilder(text, skipped, first_line, limits).build();
}

}  // namespace archfit::yaml
