#include <algorithm>

#include <archfit/base/error.hpp>
#include <archfit/edit/editor.hpp>
#include <archfit/edit/render.hpp>
#include <archfit/yaml/scalar.hpp>

namespace archfit::edit {

using yaml::NodeId;
using yaml::NodeRef;
using yaml::Style;
using yaml::Value;

namespace {

constexpr std::uint32_t kNone = 0xffffffffu;

std::string spaces(int n) {
  return std::string(static_cast<std::size_t>(n > 0 ? n : 0), ' ');
}

bool same_kind(NodeRef node, const Value& v) {
  return (node.is_mapping() && v.is_mapping()) || (node.is_sequence() && v.is_sequence());
}

bool is_empty_collection(const Value& v) {
  return (v.is_mapping() && v.entries().empty()) || (v.is_sequence() && v.items().empty());
}

std::string key_of(NodeRef key) {
  NodeRef k = key.resolved();
  return k.is_scalar() ? std::string(k.scalar()) : std::string();
}

Value nest(const std::vector<std::string>& path, std::size_t from, const Value& value) {
  Value out = value;
  for (std::size_t i = path.size(); i > from; --i) {
    Value m = Value::mapping();
    m.set(path[i - 1], std::move(out));
    out = std::move(m);
  }
  return out;
}

// Runs of consecutive indices: [[1,2], [5]].
std::vector<std::pair<std::size_t, std::size_t>> runs(const std::vector<std::size_t>& sorted) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  for (std::size_t i : sorted) {
    if (!out.empty() && out.back().second + 1 == i) {
      out.back().second = i;
    } else {
      out.emplace_back(i, i);
    }
  }
  return out;
}

}  // namespace

// One set() or remove(): collects splices and commits them only if the whole
// operation can be done.
class DocumentEditor::Session {
 public:
  explicit Session(DocumentEditor& editor) : e_(editor), text_(editor.tree_.text()) {}

  bool failed() const { return !failure_.empty(); }
  bool fail(std::string why) {
    if (failure_.empty()) failure_ = std::move(why);
    return false;
  }
  bool commit() {
    if (failed()) {
      e_.reason_ = failure_;
      return false;
    }
    e_.splices_.insert(e_.splices_.end(), pending_.begin(), pending_.end());
    for (NodeId alias : dropping_) {
      --e_.alias_uses_[e_.tree_.node(alias).first_child];
      e_.dropped_.push_back(alias);
    }
    return true;
  }

  // Nodes that may change: none of them, nor any ancestor, is the target of an
  // alias (the alias would change too).
  bool editable(NodeRef node) {
    for (NodeId n = node.id(); n != kNone; n = e_.parent_[n]) {
      if (e_.alias_uses_[n] > 0) return fail(anchor_message(NodeRef(&e_.tree_, n)));
    }
    return true;
  }

  // A subtree that goes away must not hold an anchor that an alias elsewhere
  // uses. The aliases inside it go away with it.
  bool removable(NodeRef node) {
    if (node.is_alias()) {
      dropping_.push_back(node.id());
      return true;
    }
    if (e_.alias_uses_[node.id()] > 0) return fail(anchor_message(node));
    for (std::size_t i = 0; i < child_count(node); ++i) {
      if (!removable(child(node, i))) return false;
    }
    return true;
  }

  void diff(NodeRef node, const Value& want) {
    if (failed()) return;
    if (node.is_alias()) return replace(node, want);
    if (yaml::equals(node, want)) return;
    if (node.is_mapping() && want.is_mapping() && !want.entries().empty()) {
      std::vector<std::size_t> removed;
      Value added = Value::mapping();
      std::size_t shared = 0;
      for (std::size_t i = 0; i < node.size(); ++i) {
        const Value* w = want.find(key_of(node.key(i)));
        if (w == nullptr) {
          removed.push_back(i);
        } else {
          ++shared;
        }
      }
      if (shared == 0) return replace(node, want);
      for (const Value::Entry& entry : want.entries()) {
        std::size_t i = node.find(entry.first);
        if (i == NodeRef::npos) {
          added.set(entry.first, entry.second);
        } else {
          diff(node.value(i), entry.second);
        }
      }
      remove_entries(node, removed);
      if (!added.entries().empty()) insert_entries(node, added);
      return;
    }
    if (node.is_sequence() && want.is_sequence() && !want.items().empty()) {
      const Value::Sequence& w = want.items();
      if (node.size() == w.size()) {
        for (std::size_t i = 0; i < w.size(); ++i)
          diff(node.item(i), w[i]);
        return;
      }
      std::vector<std::size_t> removed;
      std::size_t j = 0;
      for (std::size_t i = 0; i < node.size(); ++i) {
        if (j < w.size() && yaml::equals(node.item(i), w[j])) {
          ++j;
        } else {
          removed.push_back(i);
        }
      }
      if (j == 0 && node.size() > 0) return replace(node, want);
      remove_items(node, removed);
      if (j < w.size())
        append_items(node, Value::Sequence(w.begin() + static_cast<long>(j), w.end()));
      return;
    }
    replace(node, want);
  }

  void replace(NodeRef node, const Value& want) {
    if (failed() || !removable(node)) return;
    NodeId parent_id = e_.parent_[node.id()];
    if (parent_id == kNone) return (void)fail("cannot replace a whole document");
    if (!editable(NodeRef(&e_.tree_, parent_id))) return;
    NodeRef parent(&e_.tree_, parent_id);
    Span span{node.span().begin, node.span().end};
    // A block scalar's span takes its line break along; give it back.
    std::string tail =
        span.end > span.begin && text_[span.end - 1] == '\n' ? e_.layout_.newline : "";
    if (parent.style() == Style::Flow) {
      return add(span.begin, span.end, render_flow(want) + tail);
    }
    bool in_place = node.style() == Style::Block && same_kind(node, want) &&
                    !is_empty_collection(want) && !node.is_alias();
    // In place, from the first entry or dash on, so that an anchor or tag
    // in front of the collection stays.
    if (in_place && node.is_mapping()) {
      return add(node.key(0).span().begin, span.end,
                 render_entries(want, entry_column(node), e_.layout_));
    }
    if (in_place && node.is_sequence()) {
      std::uint32_t first_dash = dash_before(node.item(0));
      if (first_dash == kNone) return (void)fail("cannot find the '-' of a sequence item");
      int dash = column_at(first_dash);
      std::string out;
      for (const Value& item : want.items()) {
        if (!out.empty()) out += e_.layout_.newline + spaces(dash);
        out += "-" + render_item(item, dash, e_.layout_);
      }
      return add(first_dash, span.end, out);
    }
    if (parent.is_mapping()) {
      std::size_t i = index_in(parent, node);
      NodeRef key = parent.key(i);
      std::uint32_t after_colon = colon_after(key);
      if (after_colon == kNone) return (void)fail("cannot find the ':' after a key");
      return add(after_colon, span.end,
                 render_after_key(want, column_at(key.span().begin), e_.layout_) + tail);
    }
    std::uint32_t dash = dash_before(node);
    if (dash == kNone) return (void)fail("cannot find the '-' of a sequence item");
    add(dash + 1, span.end, render_item(want, column_at(dash), e_.layout_) + tail);
  }

  void insert_entries(NodeRef mapping, const Value& entries) {
    if (failed() || !editable(mapping)) return;
    if (mapping.size() == 0) {
      Value merged = yaml::to_value(mapping);
      for (const Value::Entry& entry : entries.entries())
        merged.set(entry.first, entry.second);
      return replace(mapping, merged);
    }
    if (mapping.style() == Style::Flow) {
      std::string out;
      for (const Value::Entry& entry : entries.entries()) {
        out += ", " + yaml::emit_string(entry.first, yaml::Context::Flow) + ": " +
               render_flow(entry.second);
      }
      return add(mapping.value(mapping.size() - 1).span().end, kNone, out);
    }
    int c = entry_column(mapping);
    std::string out;
    for (const Value::Entry& entry : entries.entries()) {
      out += spaces(c) + yaml::emit_string(entry.first, yaml::Context::Key) + ":" +
             render_after_key(entry.second, c, e_.layout_) + e_.layout_.newline;
    }
    insert_lines(mapping.span().end, std::move(out), -2 * c);
  }

  void append_items(NodeRef sequence, const Value::Sequence& items) {
    if (failed() || !editable(sequence)) return;
    if (sequence.size() == 0) return replace(sequence, Value::sequence(items));
    if (sequence.style() == Style::Flow) {
      std::string out;
      for (const Value& item : items)
        out += ", " + render_flow(item);
      return add(sequence.item(sequence.size() - 1).span().end, kNone, out);
    }
    std::uint32_t first_dash = dash_before(sequence.item(0));
    if (first_dash == kNone) return (void)fail("cannot find the '-' of a sequence item");
    int dash = column_at(first_dash);
    std::string out;
    for (const Value& item : items) {
      out += spaces(dash) + "-" + render_item(item, dash, e_.layout_) + e_.layout_.newline;
    }
    insert_lines(sequence.span().end, std::move(out), -2 * dash - 1);
  }

  void remove_entries(NodeRef mapping, const std::vector<std::size_t>& removed) {
    if (failed() || removed.empty() || !editable(mapping)) return;
    std::size_t n = mapping.size();
    if (removed.size() == n) return replace(mapping, Value::mapping());
    for (std::size_t i : removed) {
      if (!removable(mapping.key(i)) || !removable(mapping.value(i))) return;
    }
    for (auto [first, last] : runs(removed)) {
      if (mapping.style() == Style::Flow) {
        if (first > 0) {
          add(mapping.value(first - 1).span().end, mapping.value(last).span().end, "");
        } else {
          add(mapping.key(first).span().begin, mapping.key(last + 1).span().begin, "");
        }
      } else if (last + 1 < n) {
        add_whole_lines(mapping.key(first).span().begin, mapping.key(last + 1).span().begin);
      } else {
        remove_trailing_lines(mapping.key(first).span().begin, mapping.value(last).span().end);
      }
    }
  }

  void remove_items(NodeRef sequence, const std::vector<std::size_t>& removed) {
    if (failed() || removed.empty() || !editable(sequence)) return;
    std::size_t n = sequence.size();
    if (removed.size() == n) return replace(sequence, Value::sequence());
    for (std::size_t i : removed) {
      if (!removable(sequence.item(i))) return;
    }
    for (auto [first, last] : runs(removed)) {
      if (sequence.style() == Style::Flow) {
        if (first > 0) {
          add(sequence.item(first - 1).span().end, sequence.item(last).span().end, "");
        } else {
          add(sequence.item(first).span().begin, sequence.item(last + 1).span().begin, "");
        }
        continue;
      }
      std::uint32_t dash = dash_before(sequence.item(first));
      if (dash == kNone) return (void)fail("cannot find the '-' of a sequence item");
      if (last + 1 < n) {
        std::uint32_t next = dash_before(sequence.item(last + 1));
        if (next == kNone) return (void)fail("cannot find the '-' of a sequence item");
        add_whole_lines(dash, next);
      } else {
        remove_trailing_lines(dash, sequence.item(last).span().end);
      }
    }
  }

 private:
  struct Span {
    std::uint32_t begin;
    std::uint32_t end;
  };

  std::string anchor_message(NodeRef anchored) const {
    return "the anchor &" + std::string(anchored.anchor()) + " (line " +
           std::to_string(anchored.line()) +
           ") is used by an alias elsewhere, so editing it would change that place too";
  }

  static std::size_t child_count(NodeRef n) {
    return n.is_mapping() ? 2 * n.size() : n.is_sequence() ? n.size() : 0;
  }
  static NodeRef child(NodeRef n, std::size_t i) {
    return n.is_mapping() ? (i % 2 == 0 ? n.key(i / 2) : n.value(i / 2)) : n.item(i);
  }
  static std::size_t index_in(NodeRef mapping, NodeRef value) {
    for (std::size_t i = 0; i < mapping.size(); ++i) {
      if (mapping.value(i) == value) return i;
    }
    return 0;
  }
  // Columns count bytes from the line start: indentation is ASCII spaces,
  // and what precedes a key on its line ("- ") is too.
  int column_at(std::uint32_t pos) const { return static_cast<int>(pos - line_start(pos)); }
  int entry_column(NodeRef mapping) const { return column_at(mapping.key(0).span().begin); }

  // The position after the line that holds `pos` (a position at the start of
  // a line is already there).
  std::uint32_t end_of_line(std::uint32_t pos) const {
    if (pos > 0 && text_[pos - 1] == '\n') return pos;
    std::size_t lf = text_.find('\n', pos);
    return lf == std::string_view::npos ? static_cast<std::uint32_t>(text_.size())
                                        : static_cast<std::uint32_t>(lf + 1);
  }
  std::uint32_t line_start(std::uint32_t pos) const {
    while (pos > 0 && text_[pos - 1] != '\n' && text_[pos - 1] != '\r')
      --pos;
    return pos;
  }
  bool first_on_line(std::uint32_t pos) const {
    for (std::uint32_t i = line_start(pos); i < pos; ++i) {
      if (text_[i] != ' ' && text_[i] != '\t') return false;
    }
    return true;
  }
  std::uint32_t colon_after(NodeRef key) const {
    std::uint32_t pos = key.span().end;
    while (pos < text_.size() && (text_[pos] == ' ' || text_[pos] == '\t'))
      ++pos;
    return pos < text_.size() && text_[pos] == ':' ? pos + 1 : kNone;
  }
  std::uint32_t dash_before(NodeRef item) const {
    std::uint32_t pos = item.span().begin;
    while (pos > 0 && (text_[pos - 1] == ' ' || text_[pos - 1] == '\t'))
      --pos;
    return pos > 0 && text_[pos - 1] == '-' ? pos - 1 : kNone;
  }

  void add(std::uint32_t begin, std::uint32_t end, std::string text, int rank = 0) {
    pending_.push_back(Splice{begin, end == kNone ? begin : end, std::move(text), rank});
  }

  // Inserts whole lines after the line that ends at `after`; at the end of a
  // document without a final line break, the break goes first instead.
  void insert_lines(std::uint32_t after, std::string lines, int rank) {
    std::uint32_t pos = end_of_line(after);
    if (pos == text_.size() && (pos == 0 || text_[pos - 1] != '\n')) {
      const std::string& nl = e_.layout_.newline;
      lines = nl + lines.substr(0, lines.size() - nl.size());
    }
    add(pos, pos, std::move(lines), rank);
  }

  // Deletes the lines from the one holding `first` through the one holding
  // `last_end`; `first` must start its line.
  // Takes out [first, next): whole lines when both start their lines, so that
  // the removal meets a neighbouring one at a line start.
  void add_whole_lines(std::uint32_t first, std::uint32_t next) {
    if (first_on_line(first) && first_on_line(next)) {
      return add(line_start(first), line_start(next), "");
    }
    add(first, next, "");
  }

  void remove_trailing_lines(std::uint32_t first, std::uint32_t last_end) {
    if (!first_on_line(first)) return (void)fail("cannot take out a line that holds more");
    std::uint32_t begin = line_start(first);
    std::uint32_t end = end_of_line(last_end);
    if (end == text_.size() && (end == 0 || text_[end - 1] != '\n') && begin > 0) {
      // The last line has no break: take the one before it instead.
      begin = begin >= 2 && text_[begin - 2] == '\r' ? begin - 2 : begin - 1;
    }
    add(begin, end, "");
  }

  DocumentEditor& e_;
  std::string_view text_;
  std::vector<Splice> pending_;
  std::vector<NodeId> dropping_;
  std::string failure_;
};

DocumentEditor::DocumentEditor(const yaml::Tree& tree, Layout layout)
    : tree_(tree), layout_(std::move(layout)) {
  parent_.assign(tree.node_count(), kNone);
  alias_uses_.assign(tree.node_count(), 0);
  for (NodeId id = 0; id < tree.node_count(); ++id) {
    const yaml::Node& n = tree.node(id);
    if (n.kind == yaml::Kind::Alias) {
      ++alias_uses_[n.first_child];
    } else if (n.kind != yaml::Kind::Scalar) {
      for (std::uint32_t i = 0; i < n.child_count; ++i)
        parent_[tree.child(n.first_child + i)] = id;
    }
  }
}

void DocumentEditor::rollback(Mark mark) {
  splices_.resize(mark.splices);
  while (dropped_.size() > mark.dropped) {
    ++alias_uses_[tree_.node(dropped_.back()).first_child];
    dropped_.pop_back();
  }
}

bool DocumentEditor::set(NodeRef mapping, const std::vector<std::string>& path,
                         const Value& value) {
  Session s(*this);
  NodeRef node = mapping.resolved();
  if (!s.editable(node)) return s.commit();
  for (std::size_t i = 0; i < path.size(); ++i) {
    if (!node.is_mapping()) return s.fail("expected a mapping"), s.commit();
    std::size_t at = node.find(path[i]);
    if (at == NodeRef::npos) {
      Value entry = Value::mapping();
      entry.set(path[i], nest(path, i + 1, value));
      s.insert_entries(node, entry);
      return s.commit();
    }
    NodeRef child = node.value(at);
    if (child.is_alias()) {
      Value changed = yaml::to_value(child);
      Value* target = &changed;
      for (std::size_t j = i + 1; j < path.size(); ++j) {
        if (!target->is_mapping()) *target = Value::mapping();
        Value* next = target->find(path[j]);
        target = next != nullptr ? next : &target->set(path[j], Value());
      }
      *target = value;
      s.replace(child, changed);
      return s.commit();
    }
    if (i + 1 == path.size()) {
      s.diff(child, value);
      return s.commit();
    }
    if (!child.is_mapping()) {
      s.replace(child, nest(path, i + 1, value));
      return s.commit();
    }
    node = child;
  }
  return s.commit();
}

bool DocumentEditor::remove(NodeRef mapping, const std::vector<std::string>& path) {
  Session s(*this);
  NodeRef node = mapping.resolved();
  for (std::size_t i = 0; i + 1 < path.size(); ++i) {
    node = node.get(path[i]).resolved();
    if (!node.is_mapping()) return true;
  }
  std::size_t at = node.find(path.back());
  if (at == NodeRef::npos) return true;
  s.remove_entries(node, {at});
  return s.commit();
}

std::string DocumentEditor::apply() const {
  std::vector<std::size_t> order(splices_.size());
  for (std::size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::stable_sort(order.begin(), order.end(), [this](std::size_t a, std::size_t b) {
    const Splice& x = splices_[a];
    const Splice& y = splices_[b];
    if (x.begin != y.begin) return x.begin < y.begin;
    if ((x.begin == x.end) != (y.begin == y.end)) return x.begin == x.end;  // inserts first
    return x.rank < y.rank;
  });
  std::string_view text = tree_.text();
  std::size_t added = 0;
  for (const Splice& s : splices_)
    added += s.text.size();
  std::string out;
  out.reserve(text.size() + added);
  std::uint32_t pos = 0;
  bool last_removed = false;
  std::uint32_t run_begin = 0;  // where the last run of removals starts
  for (std::size_t i : order) {
    const Splice& s = splices_[i];
    if (s.begin < pos) {
      // Two removals that meet take out their union; anything else overlapping
      // is a bug.
      if (!s.text.empty() || !last_removed) {
        fail(ErrorKind::Internal, "overlapping edits at byte " + std::to_string(s.begin));
      }
      pos = std::max(pos, s.end);
      continue;
    }
    if (s.text.empty() && s.end > s.begin && !(last_removed && s.begin == pos)) {
      run_begin = s.begin;
    }
    out.append(text.substr(pos, s.begin - pos));
    out += s.text;
    pos = s.end;
    last_removed = s.text.empty() && s.end > s.begin;
  }
  out.append(text.substr(pos));
  // Removals that reach the end of a text without a final line break take the
  // break before them, so that the text still ends without one.
  bool to_end = last_removed && pos == text.size() && !text.empty() && text.back() != '\n';
  if (to_end && run_begin > 0 && text[run_begin - 1] == '\n' && text[run_begin] != '\n' &&
      text[run_begin] != '\r' && !out.empty() && out.back() == '\n') {
    out.pop_back();
    if (!out.empty() && out.back() == '\r') out.pop_back();
  }
  return out;
}

}  // namespace archfit::edit
