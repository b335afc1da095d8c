#include <algorithm>

#include <archfit/base/error.hpp>
#include <archfit/edit/editor.hpp>
#include <archfit/edit/render.hpp>
#include <archfit/yaml/scalar.hpp>

#include "edit/align.hpp"
#include "edit/text_positions.hpp"

namespace archfit::edit {

using detail::kNoPosition;
using yaml::NodeId;
using yaml::NodeRef;
using yaml::Style;
using yaml::Value;

namespace {

std::string spaces(int n) {
  return std::string(static_cast<std::size_t>(n > 0 ? n : 0), ' ');
}

bool same_kind(NodeRef node, const Value& v) {
  return (node.is_mapping() && v.is_mapping()) || (node.is_sequence() && v.is_sequence());
}

bool is_empty_collection(const Value& v) {
  return (v.is_mapping() && v.entries().empty()) || (v.is_sequence() && v.items().empty());
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

bool has_merge_key(NodeRef mapping) {
  for (std::size_t i = 0; i < mapping.size(); ++i) {
    if (yaml::is_merge_key(mapping.key(i))) return true;
  }
  return false;
}

std::string where(NodeRef node) {
  return "line " + std::to_string(node.line()) + ", column " + std::to_string(node.column());
}

}  // namespace

// One try_set() or try_remove(): collects splices and commits them only if the whole
// operation can be done.
class DocumentEditor::Session {
 public:
  Session(DocumentEditor& editor, std::string* why)
      : e_(editor), why_(why), at_(editor.tree_.text()) {}

  bool failed() const { return !failure_.empty(); }
  bool fail(std::string why) {
    if (failure_.empty()) failure_ = std::move(why);
    return false;
  }
  bool commit() {
    if (failed()) {
      if (why_ != nullptr) *why_ = failure_;
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
    for (NodeId n = node.id(); n != kNoPosition; n = e_.parent_[n]) {
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
    if (failed() || yaml::equals(node, want)) return;
    if (node.is_alias()) return (void)fail(alias_message(node));
    if (node.is_mapping() && want.is_mapping()) return diff_mapping(node, want);
    if (node.is_sequence() && want.is_sequence()) return diff_sequence(node, want);
    replace(node, want);
  }

  void diff_mapping(NodeRef node, const Value& want) {
    bool merges = has_merge_key(node);
    // A mapping with merge keys that bring nothing in reads as empty, but
    // its merge keys stay: only its own keys are taken out.
    if (want.entries().empty() && !merges) return clear(node, want);
    std::vector<std::size_t> removed;
    std::vector<bool> wanted(node.size(), false);
    // New entries, by the existing key they go before (node.size(): at the end).
    std::vector<std::pair<std::size_t, Value::Mapping>> inserts;
    Value::Mapping waiting;
    for (const Value::Entry& entry : want.entries()) {
      std::size_t i = yaml::find_key(node, entry.first);
      if (i != NodeRef::npos) {
        wanted[i] = true;
        if (!waiting.empty()) inserts.emplace_back(i, std::move(waiting));
        waiting.clear();
        diff(node.value(i), entry.second);
        continue;
      }
      NodeRef merged_by;
      if (merges) {
        NodeRef merged = yaml::lookup(node, entry.first, &merged_by);
        if (merged) {
          if (!yaml::equals(merged, entry.second))
            return (void)fail(merge_message(entry.first, merged_by));
          continue;
        }
      }
      waiting.push_back(entry);
    }
    if (!waiting.empty()) inserts.emplace_back(node.size(), std::move(waiting));
    for (std::size_t i = 0; i < node.size(); ++i) {
      if (!wanted[i] && !yaml::is_merge_key(node.key(i))) removed.push_back(i);
    }
    if (merges) {
      // A merged key the data no longer has cannot be taken out here.
      Value all = yaml::to_value(node);
      for (const Value::Entry& entry : all.entries()) {
        NodeRef merged_by;
        if (want.find(entry.first) == nullptr &&
            yaml::find_key(node, entry.first) == NodeRef::npos) {
          yaml::lookup(node, entry.first, &merged_by);
          return (void)fail(merge_message(entry.first, merged_by));
        }
      }
    }
    if (!removed.empty() && removed.size() == node.size() && !inserts.empty()) {
      return replace(node, want);
    }
    remove_entries(node, removed);
    for (auto& [before, entries] : inserts)
      insert_entries(node, entries, before);
  }

  void diff_sequence(NodeRef node, const Value& want) {
    const Value::Sequence& w = want.items();
    if (w.empty()) return clear(node, want);
    detail::Alignment a = detail::align(node.size(), w.size(), [&](std::size_t i, std::size_t j) {
      return yaml::equals(node.item(i), w[j]);
    });
    if (a.removed.size() == node.size() && !a.removed.empty()) return replace(node, want);
    remove_items(node, a.removed);
    // New items go before the next item that stays, or at the end.
    Value::Sequence waiting;
    for (std::size_t j = 0; j < w.size(); ++j) {
      if (a.source[j] == detail::Alignment::kNew) {
        waiting.push_back(w[j]);
        continue;
      }
      if (!waiting.empty()) insert_items(node, waiting, a.source[j]);
      waiting.clear();
      if (!a.equal[j]) diff(node.item(a.source[j]), w[j]);
    }
    if (!waiting.empty()) insert_items(node, waiting, node.size());
  }

  // Empties a collection: a flow one keeps its brackets and what is between
  // them and its entries (so that adding to `{ }` and emptying it again gives
  // `{ }` back); a block one, which cannot be empty, becomes `{}` or `[]`.
  void clear(NodeRef node, const Value& want) {
    if (node.style() != Style::Flow || node.size() == 0) return replace(node, want);
    if (!editable(node)) return;
    std::vector<std::size_t> all(node.size());
    for (std::size_t i = 0; i < all.size(); ++i)
      all[i] = i;
    for (std::size_t i : all) {
      if (node.is_mapping() ? !removable(node.key(i)) || !removable(node.value(i))
                            : !removable(node.item(i))) {
        return;
      }
    }
    NodeRef first = node.is_mapping() ? node.key(0) : node.item(0);
    NodeRef last = node.is_mapping() ? node.value(node.size() - 1) : node.item(node.size() - 1);
    add(first.span().begin, last.span().end, "");
  }

  // An empty flow collection a chart rendered as a key's value, `affinity: {}`
  // or `tolerations: []` alone on its line, is filled in block style, as a
  // null is: the diff reads as the fields it adds. Emptied again (fix
  // --remove), a block collection is written `{}` or `[]`, so the bytes come
  // back. Anything else about it (an anchor, a tag, a space between the
  // brackets, a comment after it) keeps it flow.
  bool fills_as_block(NodeRef collection) const {
    if (collection.style() != Style::Flow || collection.size() != 0) return false;
    if (!collection.anchor().empty() || !collection.tag().empty()) return false;
    NodeId parent_id = e_.parent_[collection.id()];
    if (parent_id == kNoPosition) return false;
    NodeRef parent(&e_.tree_, parent_id);
    if (!parent.is_mapping() || parent.style() != Style::Block) return false;
    std::string_view text = at_.text();
    yaml::Span span = collection.span();
    if (text.substr(span.begin, span.end - span.begin) != (collection.is_mapping() ? "{}" : "[]"))
      return false;
    if (span.begin < 2 || text.substr(span.begin - 2, 2) != ": ") return false;
    std::size_t after = span.end;
    while (after < text.size() && (text[after] == ' ' || text[after] == '\t'))
      ++after;
    return after == text.size() || text[after] == '\n' || text[after] == '\r';
  }

  void replace(NodeRef node, const Value& want) {
    if (failed() || !removable(node)) return;
    NodeId parent_id = e_.parent_[node.id()];
    if (parent_id == kNoPosition) return (void)fail("cannot replace a whole document");
    if (!editable(NodeRef(&e_.tree_, parent_id))) return;
    NodeRef parent(&e_.tree_, parent_id);
    std::string_view text = at_.text();
    Span span{node.span().begin, node.span().end};
    // A block scalar's span takes its line break along; give it back.
    std::string tail =
        span.end > span.begin && text[span.end - 1] == '\n' ? e_.layout_.newline : "";
    if (parent.style() == Style::Flow) {
      return add(span.begin, span.end, render_flow(want, e_.layout_.json) + tail);
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
      std::uint32_t first_dash = at_.dash_before(node.item(0));
      if (first_dash == kNoPosition) return (void)fail("cannot find the '-' of a sequence item");
      int dash = at_.column_at(first_dash);
      std::string out;
      for (const Value& item : want.items()) {
        if (!out.empty()) out += e_.layout_.newline + spaces(dash);
        out += "-" + render_item(item, dash, e_.layout_);
      }
      return add(first_dash, span.end, out);
    }
    if (parent.is_mapping()) {
      NodeRef key = parent.key(index_in(parent, node));
      std::uint32_t after_colon = at_.colon_after(key);
      if (after_colon == kNoPosition) return (void)fail(explicit_key_message(key));
      add(after_colon, span.end,
          render_after_key(want, at_.column_at(key.span().begin), e_.layout_) + tail);
      pending_.back().collection = node.id();
      pending_.back().replaces = true;
      return;
    }
    std::uint32_t dash = at_.dash_before(node);
    if (dash == kNoPosition) return (void)fail("cannot find the '-' of a sequence item");
    add(dash + 1, span.end, render_item(want, at_.column_at(dash), e_.layout_) + tail);
  }

  void insert_entries(NodeRef mapping, const Value::Mapping& entries, std::size_t before) {
    if (failed() || entries.empty() || !editable(mapping)) return;
    if (has_merge_key(mapping)) {
      for (const Value::Entry& entry : entries) {
        NodeRef merged_by;
        if (yaml::lookup(mapping, entry.first, &merged_by)) {
          return (void)fail(merge_message(entry.first, merged_by));
        }
      }
    }
    if (fills_as_block(mapping)) {
      Value merged = Value::mapping(entries);
      return replace(mapping, merged);
    }
    if (mapping.style() == Style::Flow) {
      std::vector<std::string> texts;
      for (const Value::Entry& entry : entries) {
        texts.push_back(render_key(entry.first, true) + ": " +
                        render_flow(entry.second, e_.layout_.json));
      }
      return insert_flow(mapping, texts, before);
    }
    if (mapping.size() == 0) {
      Value merged = yaml::to_value(mapping);
      for (const Value::Entry& entry : entries)
        merged.set(entry.first, entry.second);
      return replace(mapping, merged);
    }
    // An explicit first key ("? key" with its ":" on the next line) stands
    // after its "?": the entries' column is not the key's.
    if (at_.colon_after(mapping.key(0)) == kNoPosition)
      return (void)fail(explicit_key_message(mapping.key(0)));
    int c = entry_column(mapping);
    std::string out;
    for (const Value::Entry& entry : entries) {
      out += spaces(c) + render_key(entry.first, false) + ":" +
             render_after_key(entry.second, c, e_.layout_) + e_.layout_.newline;
    }
    if (before < mapping.size()) {
      std::uint32_t key = mapping.key(before).span().begin;
      if (at_.first_on_line(key)) {
        add(at_.line_start(key), at_.line_start(key), out, -1);
        return mark_lines(mapping, before);
      }
    }
    if (insert_lines(mapping.span().end, std::move(out), -2 * c))
      mark_lines(mapping, mapping.size());
  }

  void insert_items(NodeRef sequence, const Value::Sequence& items, std::size_t before) {
    if (failed() || items.empty() || !editable(sequence)) return;
    if (fills_as_block(sequence)) return replace(sequence, Value::sequence(items));
    if (sequence.style() == Style::Flow) {
      std::vector<std::string> texts;
      for (const Value& item : items)
        texts.push_back(render_flow(item, e_.layout_.json));
      return insert_flow(sequence, texts, before);
    }
    if (sequence.size() == 0) {
      Value::Sequence all = yaml::to_value(sequence).items();
      all.insert(all.end(), items.begin(), items.end());
      return replace(sequence, Value::sequence(std::move(all)));
    }
    std::uint32_t first_dash = at_.dash_before(sequence.item(0));
    if (first_dash == kNoPosition) return (void)fail("cannot find the '-' of a sequence item");
    int dash = at_.column_at(first_dash);
    std::string out;
    for (const Value& item : items) {
      out += spaces(dash) + "-" + render_item(item, dash, e_.layout_) + e_.layout_.newline;
    }
    if (before < sequence.size()) {
      std::uint32_t next = at_.dash_before(sequence.item(before));
      if (next != kNoPosition && at_.first_on_line(next)) {
        add(at_.line_start(next), at_.line_start(next), out, -1);
        return mark_lines(sequence, before);
      }
    }
    if (insert_lines(sequence.span().end, std::move(out), -2 * dash - 1)) {
      mark_lines(sequence, sequence.size());
    }
  }

  void remove_entries(NodeRef mapping, const std::vector<std::size_t>& removed) {
    if (failed() || removed.empty() || !editable(mapping)) return;
    std::size_t n = mapping.size();
    if (removed.size() == n) return clear(mapping, Value::mapping());
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
    if (removed.size() == n) return clear(sequence, Value::sequence());
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
      std::uint32_t dash = at_.dash_before(sequence.item(first));
      if (dash == kNoPosition) return (void)fail("cannot find the '-' of a sequence item");
      if (last + 1 < n) {
        std::uint32_t next = at_.dash_before(sequence.item(last + 1));
        if (next == kNoPosition) return (void)fail("cannot find the '-' of a sequence item");
        add_whole_lines(dash, next);
      } else {
        remove_trailing_lines(dash, sequence.item(last).span().end);
      }
    }
  }

  std::string alias_message(NodeRef alias) const {
    std::string name(alias.target().anchor());
    return "the value at " + where(alias) + " is the alias *" + name +
           ", which stands for the anchor &" + name + " (line " +
           std::to_string(alias.target().line()) +
           "); archfit does not expand aliases, since the anchor would then no longer say what "
           "this place holds";
  }

  std::string merge_message(std::string_view key, NodeRef merge_key) const {
    return "\"" + std::string(key) + "\" comes in through the merge key `<<` at " +
           where(merge_key) + ", and a key of archfit's own beside it would hide or change it";
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

  static std::string explicit_key_message(NodeRef key) {
    return "the key at " + where(key) +
           " is written as an explicit `? key`, which archfit does not edit";
  }

  std::string render_key(const std::string& key, bool flow) const {
    if (e_.layout_.json) return render_flow(Value::string(key), true);
    return yaml::emit_string(key, flow ? yaml::Context::Flow : yaml::Context::Key);
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
  int entry_column(NodeRef mapping) const { return at_.column_at(mapping.key(0).span().begin); }

  // What separates the items of a flow collection: what is between its
  // first two items when that is only a comma and blanks, else a comma and
  // a line break when its items stand on lines of their own, else ", ".
  std::string flow_separator(NodeRef collection) const {
    std::string_view text = at_.text();
    auto first = [&](std::size_t i) {
      return collection.is_mapping() ? collection.key(i) : collection.item(i);
    };
    auto last = [&](std::size_t i) {
      return collection.is_mapping() ? collection.value(i) : collection.item(i);
    };
    if (collection.size() >= 2) {
      std::uint32_t from = last(0).span().end;
      std::string_view between = text.substr(from, first(1).span().begin - from);
      bool plain = between.find(',') != std::string_view::npos &&
                   between.find_first_not_of(", \t\r\n") == std::string_view::npos &&
                   std::count(between.begin(), between.end(), ',') == 1;
      if (plain) return std::string(between);
    }
    NodeRef item = first(0);
    if (item.line() != collection.line()) {
      return "," + e_.layout_.newline + spaces(at_.column_at(item.span().begin));
    }
    return ", ";
  }

  // Adds `texts` (rendered entries or items) to a flow collection before
  // item `before`, or at its end.
  void insert_flow(NodeRef collection, const std::vector<std::string>& texts, std::size_t before) {
    std::size_t n = collection.size();
    if (n == 0) {
      std::uint32_t open = at_.open_bracket(collection);
      if (open == kNoPosition) return (void)fail("cannot find the bracket of a flow collection");
      std::string out;
      for (const std::string& t : texts) {
        if (!out.empty()) out += ", ";
        out += t;
      }
      return add(open + 1, open + 1, out);
    }
    std::string sep = flow_separator(collection);
    std::string out;
    if (before < n) {
      for (const std::string& t : texts)
        out += t + sep;
      NodeRef next = collection.is_mapping() ? collection.key(before) : collection.item(before);
      return add(next.span().begin, next.span().begin, out, -1);
    }
    for (const std::string& t : texts)
      out += sep + t;
    NodeRef last = collection.is_mapping() ? collection.value(n - 1) : collection.item(n - 1);
    add(last.span().end, last.span().end, out);
  }

  void add(std::uint32_t begin, std::uint32_t end, std::string text, int rank = 0) {
    pending_.push_back(Splice{begin, end, std::move(text), rank});
  }

  // Notes that the splice just added is whole lines of new entries or items
  // of `collection`, in front of its entry `before`.
  void mark_lines(NodeRef collection, std::size_t before) {
    pending_.back().collection = collection.id();
    pending_.back().before = before;
  }

  // Inserts whole lines after the line that ends at `after`; at the end of a
  // document without a final line break, the break goes first instead (and
  // false says so).
  bool insert_lines(std::uint32_t after, std::string lines, int rank) {
    std::uint32_t pos = at_.end_of_line(after);
    std::string_view text = at_.text();
    bool whole = true;
    if (pos == text.size() && (pos == 0 || text[pos - 1] != '\n')) {
      const std::string& nl = e_.layout_.newline;
      lines = nl + lines.substr(0, lines.size() - nl.size());
      whole = false;
    }
    add(pos, pos, std::move(lines), rank);
    return whole;
  }

  // Takes out [first, next): whole lines when both start their lines, so that
  // the removal meets a neighbouring one at a line start.
  void add_whole_lines(std::uint32_t first, std::uint32_t next) {
    if (at_.first_on_line(first) && at_.first_on_line(next)) {
      return add(at_.line_start(first), at_.line_start(next), "");
    }
    add(first, next, "");
  }

  // Deletes the lines from the one holding `first` through the one holding
  // `last_end`; `first` must start its line.
  void remove_trailing_lines(std::uint32_t first, std::uint32_t last_end) {
    if (!at_.first_on_line(first)) return (void)fail("cannot take out a line that holds more");
    std::string_view text = at_.text();
    std::uint32_t begin = at_.line_start(first);
    std::uint32_t end = at_.end_of_line(last_end);
    if (end == text.size() && (end == 0 || text[end - 1] != '\n') && begin > 0) {
      // The last line has no break: take the one before it instead.
      begin = begin >= 2 && text[begin - 2] == '\r' ? begin - 2 : begin - 1;
    }
    add(begin, end, "");
  }

  DocumentEditor& e_;
  std::string* why_;
  detail::TextPositions at_;
  std::vector<Splice> pending_;
  std::vector<NodeId> dropping_;
  std::string failure_;
};

DocumentEditor::DocumentEditor(const yaml::Tree& tree, Layout layout)
    : tree_(tree), layout_(std::move(layout)) {
  parent_.assign(tree.node_count(), kNoPosition);
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

bool DocumentEditor::try_set(NodeRef mapping, const std::vector<std::string>& path,
                             const Value& value, std::size_t position, std::string* why) {
  Session s(*this, why);
  NodeRef node = mapping;
  if (node.is_alias()) return s.fail(s.alias_message(node)), s.commit();
  if (!s.editable(node)) return s.commit();
  for (std::size_t i = 0; i < path.size(); ++i) {
    if (!node.is_mapping()) return s.fail("expected a mapping"), s.commit();
    std::size_t at = node.find(path[i]);
    if (at == NodeRef::npos) {
      NodeRef merged_by;
      if (yaml::lookup(node, path[i], &merged_by)) {
        return s.fail(s.merge_message(path[i], merged_by)), s.commit();
      }
      Value::Mapping entry;  // built in place: a list initializer would copy the value
      entry.emplace_back(path[i], nest(path, i + 1, value));
      s.insert_entries(node, entry,
                       i + 1 == path.size() ? std::min(position, node.size()) : node.size());
      return s.commit();
    }
    NodeRef child = node.value(at);
    if (i + 1 == path.size()) {
      s.diff(child, value);
      return s.commit();
    }
    if (child.is_alias()) return s.fail(s.alias_message(child)), s.commit();
    if (!child.is_mapping()) {
      s.replace(child, nest(path, i + 1, value));
      return s.commit();
    }
    node = child;
  }
  return s.commit();
}

bool DocumentEditor::try_remove(NodeRef mapping, const std::vector<std::string>& path,
                                std::string* why) {
  Session s(*this, why);
  NodeRef node = mapping;
  for (std::size_t i = 0; i + 1 < path.size(); ++i) {
    node = node.get(path[i]);
    if (node.is_alias()) return s.fail(s.alias_message(node)), s.commit();
    if (!node.is_mapping()) return true;
  }
  std::size_t at = node.find(path.back());
  if (at == NodeRef::npos) {
    NodeRef merged_by;
    if (yaml::lookup(node, path.back(), &merged_by)) {
      return s.fail(s.merge_message(path.back(), merged_by)), s.commit();
    }
    return true;
  }
  s.remove_entries(node, {at});
  return s.commit();
}

std::vector<std::size_t> DocumentEditor::order() const {
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
  return order;
}

std::vector<yaml::Insertion> DocumentEditor::insertions() const {
  std::vector<yaml::Insertion> out;
  for (std::size_t i : order()) {
    const Splice& s = splices_[i];
    if (s.collection == yaml::kNoNode || (s.end != s.begin) != s.replaces) return {};
    out.push_back(yaml::Insertion{s.collection, s.before, s.begin, s.text, s.end});
  }
  return out;
}

Splices DocumentEditor::replacements() && {
  struct Range {
    std::uint32_t begin;
    std::uint32_t end;
    std::string text;
  };
  std::vector<Range> ranges;
  for (std::size_t i : order()) {
    Splice& s = splices_[i];
    if (!ranges.empty() && s.begin <= ranges.back().end) {
      // Splices that meet, and removals that overlap (apply() takes their
      // union); any other overlap apply() refuses, and gives() would too.
      Range& last = ranges.back();
      last.end = std::max(last.end, s.end);
      last.text += s.text;
      continue;
    }
    ranges.push_back(Range{s.begin, s.end, std::move(s.text)});
  }
  Splices out;
  for (Range& r : ranges)
    out.replace(r.begin, r.end - r.begin, std::move(r.text));
  return out;
}

std::string DocumentEditor::apply() const {
  std::vector<std::size_t> order = this->order();
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
