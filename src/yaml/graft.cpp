#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <archfit/base/error.hpp>
#include <archfit/yaml/graft.hpp>

namespace archfit::yaml {

namespace {

bool is_line_start(std::string_view text, std::uint32_t pos) {
  return pos == 0 || text[pos - 1] == '\n';
}

bool only(std::string_view s, std::string_view allowed) {
  return s.find_first_not_of(allowed) == std::string_view::npos;
}

// No token in `s`: blanks, line breaks, and comments that follow a blank or
// start a line.
bool no_tokens(std::string_view s) {
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '#') {
      if (i == 0 || (s[i - 1] != ' ' && s[i - 1] != '\t' && s[i - 1] != '\n')) return false;
      std::size_t lf = s.find('\n', i);
      if (lf == std::string_view::npos) return true;
      i = lf;
    } else if (c != ' ' && c != '\t' && c != '\r' && c != '\n') {
      return false;
    }
  }
  return true;
}

// libyaml also breaks lines at NEL, LS and PS; lines are only counted where
// '\n' is the one line break there is.
bool has_unicode_breaks(std::string_view s) {
  // NEL is C2 85, LS and PS are E2 80 A8 and E2 80 A9: looked for by their
  // first byte (memchr), which most text does not hold at all.
  for (std::size_t i = s.find('\xC2'); i != std::string_view::npos; i = s.find('\xC2', i + 1)) {
    if (s.substr(i).starts_with("\xC2\x85")) return true;
  }
  for (std::size_t i = s.find('\xE2'); i != std::string_view::npos; i = s.find('\xE2', i + 1)) {
    std::string_view rest = s.substr(i);
    if (rest.starts_with("\xE2\x80\xA8") || rest.starts_with("\xE2\x80\xA9")) return true;
  }
  return false;
}

std::uint32_t line_breaks(std::string_view s) {
  return static_cast<std::uint32_t>(std::count(s.begin(), s.end(), '\n'));
}

bool is_block_scalar(const Node& n) {
  return n.kind == Kind::Scalar && (n.style == Style::Literal || n.style == Style::Folded);
}

bool same_limits(const Limits& a, const Limits& b) {
  return a.max_document_bytes == b.max_document_bytes && a.max_depth == b.max_depth &&
         a.max_alias_expansion == b.max_alias_expansion &&
         a.reject_duplicate_keys == b.reject_duplicate_keys;
}

// A piece's lines are archfit's own, and the same ones recur: every workload
// whose images run on the same platforms gets the same affinity block and the
// same annotations. A piece's tree depends on nothing but its text (its lines
// are counted from 0 here and moved where it lands), so the run keeps the
// trees of the distinct pieces it parsed, by text, for every thread (the
// threads of a run's windows come and go): a stream of thousands of
// workloads has a few hundred distinct pieces, in no order a short ring of
// recent ones would catch. A piece is kept the second time it is parsed, so
// that pieces that never recur (a topology spread names its workload's
// labels) cost the store a hash; it is emptied when what it keeps, text and
// trees, reaches kMaxBytes, so it stays small whatever the input, and what
// it drops is destroyed outside the lock. A piece is parsed
// outside the lock too; two threads may both parse one, and the first keeps
// it.
class PieceTrees {
 public:
  // The tree of `lines` parsed alone from line 0 (it keeps its own copy of
  // them); nullptr when they do not parse.
  std::shared_ptr<const Tree> parsed(std::string_view lines, const Limits& limits) {
    const std::size_t hash = Hash{}(lines);
    bool keep = false;
    {
      std::lock_guard lock(mutex_);
      if (same_limits(limits_, limits)) {
        if (auto it = pieces_.find(lines); it != pieces_.end()) {
          return std::shared_ptr<const Tree>(it->second, &it->second->tree);
        }
      }
      // Kept the second time it is seen: most pieces that never recur are
      // then parsed and dropped, and cost the store a hash.
      if (seen_.size() >= kMaxSeen) seen_.clear();
      keep = !seen_.insert(hash).second;
    }
    auto piece = std::make_shared<Parsed>();
    piece->text.assign(lines);
    try {
      piece->tree = parse_document(piece->text, 0, limits);
    } catch (const Error&) {
      return nullptr;
    }
    if (!keep) return std::shared_ptr<const Tree>(piece, &piece->tree);
    const std::size_t cost = footprint(*piece);
    Map dropped;
    std::lock_guard lock(mutex_);
    if (!same_limits(limits_, limits) || bytes_ + cost > kMaxBytes) {
      dropped.swap(pieces_);
      bytes_ = 0;
      limits_ = limits;
    }
    auto [it, inserted] = pieces_.emplace(piece->text, piece);
    if (inserted) bytes_ += cost;
    return std::shared_ptr<const Tree>(it->second, &it->second->tree);
  }

 private:
  static constexpr std::size_t kMaxSeen = std::size_t{1} << 16;
  static constexpr std::size_t kMaxBytes = std::size_t{2} << 20;
  struct Parsed {
    std::string text;
    Tree tree;
  };
  // About what a piece holds: its text twice (its own and its tree's
  // scalars), its nodes and their places among their parents' children.
  static std::size_t footprint(const Parsed& p) {
    return 2 * p.text.size() + p.tree.node_count() * (sizeof(Node) + sizeof(NodeId)) + 128;
  }
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  // Keys view the text each Parsed owns.
  using Map =
      std::unordered_map<std::string_view, std::shared_ptr<const Parsed>, Hash, std::equal_to<>>;
  Map pieces_;
  std::unordered_set<std::size_t> seen_;  // hashes of the pieces parsed once
  std::size_t bytes_ = 0;
  Limits limits_;
  std::mutex mutex_;
};

PieceTrees piece_trees;

}  // namespace

// Builds the grafted tree; see graft().
class Grafter {
 public:
  Grafter(const Tree& base, std::string_view edited, std::span<const Insertion> insertions,
          const Limits& limits)
      : base_(base),
        text_(base.text()),
        edited_(edited),
        insertions_(insertions),
        limits_(limits) {}

  std::optional<Tree> run() {
    if (insertions_.empty() || edited_.size() > limits_.max_document_bytes) return std::nullopt;
    if (!place_insertions()) return std::nullopt;
    parent_ = parents();
    std::uint32_t breaks_before = 0;  // line breaks of the pieces before this one
    for (Piece& piece : pieces_) {
      std::optional<std::uint32_t> line =
          piece.replaces ? fits_replacement(piece) : fits(*piece.insertion);
      if (!line) return std::nullopt;
      piece.first_line = *line + breaks_before;
      if (!parse_piece(piece)) return std::nullopt;
      breaks_before += piece.breaks;
    }
    return compose();
  }

 private:
  struct Piece {
    const Insertion* insertion = nullptr;
    bool replaces = false;             // a key's empty value written out (Insertion::end)
    std::string_view lines;            // what is parsed: the lines, each with its break
    std::uint32_t key_column = 0;      // replacing: the column of the value's key
    std::uint32_t children_base = 0;   // where its child ids start in the grafted tree
    std::uint32_t pos = 0;             // where its lines start in the edited text
    std::uint32_t first_line = 0;      // the 0-based file line of `pos`
    std::uint32_t breaks = 0;          // line breaks in its lines
    std::shared_ptr<const Tree> tree;  // its lines parsed alone, from line 0
    NodeId first_id = 0;               // the id its node 1 gets (node 0, its root, is not kept)
  };

  const Node& node(NodeId id) const { return base_.node(id); }
  NodeId child(const Node& n, std::uint32_t i) const { return base_.child(n.first_child + i); }

  // Checks that the edited text is the original with the insertions, in
  // order, and notes where each one's lines land.
  bool place_insertions() {
    std::uint32_t from = 0;
    std::size_t out = 0;
    for (const Insertion& in : insertions_) {
      const bool replaces = in.end > in.at;
      if (in.at < from || in.at > text_.size() || in.lines.empty() ||
          has_unicode_breaks(in.lines)) {
        return false;
      }
      if (replaces ? in.end >= text_.size() || text_[in.end] != '\n' || in.lines.front() != '\n' ||
                         in.lines.size() <= in.end - in.at
                   : in.lines.back() != '\n') {
        return false;
      }
      std::string_view kept = text_.substr(from, in.at - from);
      if (edited_.substr(out, kept.size()) != kept) return false;
      out += kept.size();
      if (edited_.substr(out, in.lines.size()) != in.lines) return false;
      Piece& piece = pieces_.emplace_back();
      piece.insertion = &in;
      piece.replaces = replaces;
      // A replacement's lines start after its first break and end with the
      // original's break after it (checked above, and kept by the check
      // that follows this loop).
      piece.pos = static_cast<std::uint32_t>(replaces ? out + 1 : out);
      piece.lines = replaces ? edited_.substr(out + 1, in.lines.size()) : in.lines;
      piece.breaks = line_breaks(in.lines);
      out += in.lines.size();
      from = replaces ? in.end : in.at;
    }
    return edited_.substr(out) == text_.substr(from);
  }

  // The column new entries or items must stand at; 0 when it cannot be told.
  // A mapping's entries stand at its first key only when nothing but blanks
  // and sequence dashes come before that key on its line (`- name: x`): after
  // an explicit key's "? " the key's column is not the entries'.
  std::uint32_t entry_column(const Node& m) const {
    if (m.kind == Kind::Mapping) {
      const Node& key = node(child(m, 0));
      return starts_its_line(key.span.begin) ? key.column : 0;
    }
    return m.has_props ? 0 : m.column;  // a block sequence starts at its first '-'
  }

  // Nothing but blanks and sequence dashes ("- ") before `at` on its line.
  bool starts_its_line(std::uint32_t at) const {
    std::uint32_t start = at;
    while (start > 0 && text_[start - 1] != '\n')
      --start;
    for (std::uint32_t i = start; i < at; ++i) {
      char c = text_[i];
      if (c == ' ') continue;
      if (c != '-' || i + 1 >= at || text_[i + 1] != ' ') return false;
    }
    return true;
  }

  // A replacement (Insertion::end) reads as the collection parsed alone in
  // its key's place when: the value is `{}` or `[]` without tag or anchor,
  // the value of an entry of a block mapping whose key is a one-line scalar
  // that starts its line, `key:` then blanks then the value then the line's
  // end; and the new lines (parse_piece) are one block collection of the
  // same kind below the key: deeper than the key for a mapping, at its
  // column or deeper for a sequence, as a block sequence may stand under its
  // key. The rest of the line after the value was only its break, so the
  // lines after the new ones start as they started after the value's line.
  // Returns the 0-based file line of the first new line, as the original
  // counts lines.
  std::optional<std::uint32_t> fits_replacement(Piece& piece) const {
    const Insertion& in = *piece.insertion;
    if (in.collection >= base_.node_count()) return std::nullopt;
    const Node& value = node(in.collection);
    if ((value.kind != Kind::Mapping && value.kind != Kind::Sequence) ||
        value.style != Style::Flow || value.child_count != 0 || value.has_props ||
        value.span.end != in.end || value.span.begin < in.at) {
      return std::nullopt;
    }
    std::string_view brackets = value.kind == Kind::Mapping ? "{}" : "[]";
    if (text_.substr(value.span.begin, value.span.end - value.span.begin) != brackets ||
        in.at == 0 || text_[in.at - 1] != ':' ||
        !only(text_.substr(in.at, value.span.begin - in.at), " ")) {
      return std::nullopt;
    }
    NodeId m = parent_[in.collection];
    if (m == kNoNode || node(m).kind != Kind::Mapping || node(m).style != Style::Block) {
      return std::nullopt;
    }
    const Node& map = node(m);
    std::uint32_t i = 1;
    while (i < map.child_count && child(map, i) != in.collection)
      i += 2;
    if (i >= map.child_count) return std::nullopt;  // not a value of it
    const Node& key = node(child(map, i - 1));
    if (key.kind != Kind::Scalar || key.has_props || is_block_scalar(key) ||
        key.line != value.line || key.span.end + 1 != in.at || key.span.end <= key.span.begin ||
        !starts_its_line(key.span.begin)) {
      return std::nullopt;
    }
    piece.key_column = key.column;
    return value.line;
  }

  // The lines at `at` become entries (items) of the collection that read the
  // same wherever they stand between the neighbours. Returns the 0-based file
  // line of `at` in the original text; nullopt when they might not.
  std::optional<std::uint32_t> fits(const Insertion& in) const {
    if (in.collection >= base_.node_count()) return std::nullopt;
    const Node& m = node(in.collection);
    bool mapping = m.kind == Kind::Mapping;
    if ((!mapping && m.kind != Kind::Sequence) || m.style != Style::Block) return std::nullopt;
    std::uint32_t count = mapping ? m.child_count / 2 : m.child_count;
    std::uint32_t p = in.at;
    if (count == 0 || in.before > count || !is_line_start(text_, p) || entry_column(m) == 0) {
      return std::nullopt;
    }
    auto before = static_cast<std::uint32_t>(in.before);
    std::optional<std::uint32_t> line;
    if (before < count) {
      // The next entry starts the line the new ones go in front of.
      const Node& next = node(child(m, mapping ? 2 * before : before));
      if (next.span.begin < p) return std::nullopt;
      std::string_view lead = text_.substr(p, next.span.begin - p);
      if (mapping) {
        if (!only(lead, " ")) return std::nullopt;
        line = next.line - 1;
      } else {
        std::size_t dash = lead.find_first_not_of(' ');
        if (dash == std::string_view::npos || lead[dash] != '-' ||
            !no_tokens(lead.substr(dash + 1))) {
          return std::nullopt;
        }
        if (before == 0) line = m.line - 1;  // the sequence starts at this dash
      }
    }
    if (before > 0) {
      // The entry before ends before the line, with nothing after it that the
      // new lines could take over or give a meaning to.
      NodeId prev = child(m, mapping ? 2 * before - 1 : before - 1);
      NodeId last = prev;
      while (node(last).kind != Kind::Scalar && node(last).kind != Kind::Alias &&
             node(last).child_count > 0) {
        last = child(node(last), node(last).child_count - 1);
      }
      const Node& end = node(last);
      if (is_block_scalar(end) || end.span.end == end.span.begin) return std::nullopt;
      std::uint32_t e = node(prev).span.end;
      if (e > p || !no_tokens(text_.substr(e, p - e))) return std::nullopt;
      if (!line) {
        // Counted from where that last node starts.
        std::string_view between = text_.substr(end.span.begin, p - end.span.begin);
        if (has_unicode_breaks(between)) return std::nullopt;
        line = end.line - 1 + line_breaks(between);
      }
    }
    return line;
  }

  // Parses the piece's lines alone: one block collection of the same kind at
  // the collection's column, without anchors, aliases or tags, that ends
  // cleanly.
  bool parse_piece(Piece& piece) const {
    const Insertion& in = *piece.insertion;
    piece.tree = piece_trees.parsed(piece.lines, limits_);
    if (!piece.tree) return false;
    const Tree& t = *piece.tree;
    const Node& m = node(in.collection);
    if (t.root_ != 0 || !t.props_.empty()) return false;
    const Node& root = t.node(0);
    if (root.kind != m.kind || root.style != Style::Block || root.child_count == 0) return false;
    if (!piece.replaces           ? root.column != entry_column(m)
        : m.kind == Kind::Mapping ? root.column <= piece.key_column
                                  : root.column < piece.key_column) {
      return false;
    }
    NodeId last = 0;
    while (t.node(last).kind != Kind::Scalar && t.node(last).child_count > 0) {
      last = t.child(t.node(last).first_child + t.node(last).child_count - 1);
    }
    const Node& end = t.node(last);
    if (is_block_scalar(end) || end.span.end == end.span.begin) return false;
    return only(piece.lines.substr(0, root.span.begin), " ") &&
           only(piece.lines.substr(root.span.end), " \r\n");
  }

  // Moves an original node past the lines inserted before it: those at its
  // start, too, move its start and line; those at its end do not move its
  // end. False when new lines would meet a node whose reading they could
  // change: an empty node (it sits where the next token is) or the end of a
  // block scalar.
  bool move(Node& n) const {
    const std::uint32_t begin = n.span.begin;
    const std::uint32_t end = n.span.end;
    const Shifts& sh = shifts_;
    // Insertions: those at or before the start move it (and its line), those
    // before the end move the end.
    auto upto = [](const std::vector<std::uint32_t>& at, std::uint32_t x) {
      return static_cast<std::size_t>(std::upper_bound(at.begin(), at.end(), x) - at.begin());
    };
    auto below = [](const std::vector<std::uint32_t>& at, std::uint32_t x) {
      return static_cast<std::size_t>(std::lower_bound(at.begin(), at.end(), x) - at.begin());
    };
    auto has = [](const std::vector<std::uint32_t>& at, std::uint32_t x) {
      return std::binary_search(at.begin(), at.end(), x);
    };
    if ((begin == end && has(sh.insert_at, begin)) ||
        (is_block_scalar(n) && has(sh.insert_at, end)))
      return false;
    std::size_t before_begin = upto(sh.insert_at, begin);
    std::size_t before_end = below(sh.insert_at, end);
    std::uint64_t by_begin = sh.insert_length[before_begin];
    std::uint64_t by_end = sh.insert_length[before_end];
    std::uint64_t lines = sh.insert_breaks[before_begin];
    // Replacements: what follows one moves by what it grew by, what holds it
    // grows by as much; nothing else may touch it (the value it replaces is
    // not moved: compose puts the new one there).
    if (!sh.replace_at.empty()) {
      // The last replacement that starts at or before the node's start, and
      // before its end: neither may hold one of the node's ends.
      std::size_t k = upto(sh.replace_at, begin);
      if (k > 0 && begin < sh.replace_end[k - 1]) return false;
      std::size_t e = below(sh.replace_at, end);
      if (e > 0 && end > sh.replace_at[e - 1] && end < sh.replace_end[e - 1]) return false;
      std::size_t done_begin = upto(sh.replace_end, begin);
      std::size_t done_end = upto(sh.replace_end, end);
      by_begin += sh.replace_grows[done_begin];
      lines += sh.replace_breaks[done_begin];
      by_end += sh.replace_grows[done_end];
    }
    n.span.begin += static_cast<std::uint32_t>(by_begin);
    n.span.end += static_cast<std::uint32_t>(by_end);
    n.line += static_cast<std::uint32_t>(lines);
    if (n.value_in_text) n.value_offset = n.span.begin;
    return true;
  }

  // The pieces' places in the original text and what each adds, in text
  // order, with running sums (entry k: the sum over the pieces before the
  // k-th), so that move() finds what moves a node by binary search.
  struct Shifts {
    std::vector<std::uint32_t> insert_at;
    std::vector<std::uint64_t> insert_length{0};
    std::vector<std::uint64_t> insert_breaks{0};
    std::vector<std::uint32_t> replace_at;
    std::vector<std::uint32_t> replace_end;
    std::vector<std::uint64_t> replace_grows{0};
    std::vector<std::uint64_t> replace_breaks{0};
  };
  void note_shifts() {
    for (const Piece& piece : pieces_) {
      const Insertion& in = *piece.insertion;
      if (piece.replaces) {
        shifts_.replace_at.push_back(in.at);
        shifts_.replace_end.push_back(in.end);
        shifts_.replace_grows.push_back(shifts_.replace_grows.back() + in.lines.size() -
                                        (in.end - in.at));
        shifts_.replace_breaks.push_back(shifts_.replace_breaks.back() + piece.breaks);
      } else {
        shifts_.insert_at.push_back(in.at);
        shifts_.insert_length.push_back(shifts_.insert_length.back() + in.lines.size());
        shifts_.insert_breaks.push_back(shifts_.insert_breaks.back() + piece.breaks);
      }
    }
  }

  std::optional<Tree> compose() {
    Tree g;
    g.text_ = edited_;
    g.root_ = base_.root_;
    // Room for every node and child id at once: the pieces' nodes, and each
    // regrouped collection's children again (at most all of them).
    std::size_t piece_nodes = 0;
    std::size_t piece_children = 0;
    for (const Piece& piece : pieces_) {
      piece_nodes += piece.tree->nodes_.size();
      piece_children += piece.tree->children_.size();
    }
    g.reserve(base_.nodes_.size() + piece_nodes, 2 * (base_.children_.size() + piece_children));
    g.nodes_.assign(base_.nodes_.begin(), base_.nodes_.end());
    g.children_.assign(base_.children_.begin(), base_.children_.end());
    g.arena_ = base_.arena_;
    g.props_ = base_.props_;
    // A new tree: its large mappings are indexed again when asked for.
    if (base_.key_indexes_) g.note_mapping(Tree::kScannedKeys + 1);
    note_shifts();
    // The nodes whose value a piece replaces, and each collection's
    // insertions in order of place: every node and piece is looked at once.
    std::vector<bool> replaced(g.nodes_.size(), false);
    for (std::size_t i = 0; i < pieces_.size(); ++i) {
      const Piece& p = pieces_[i];
      if (p.replaces) {
        replaced[p.insertion->collection] = true;
      } else {
        into_[p.insertion->collection].push_back(i);
      }
    }
    for (NodeId id = 0; id < g.nodes_.size(); ++id) {
      if (!replaced[id] && !move(g.nodes_[id])) return std::nullopt;
    }
    for (Piece& piece : pieces_)
      add_piece(g, piece);
    for (std::size_t i = 0; i < pieces_.size(); ++i) {
      if (pieces_[i].replaces) {
        if (!put_in_place(g, pieces_[i])) return std::nullopt;
        continue;
      }
      NodeId m = pieces_[i].insertion->collection;
      if (into_[m].front() == i && !regroup(g, m, parent_)) return std::nullopt;
    }
    return g;
  }

  // The replaced value's node becomes the piece's root (its children are
  // the piece's, added by add_piece), and the collections that end with it
  // end where it now ends.
  bool put_in_place(Tree& g, const Piece& piece) const {
    const NodeId v = piece.insertion->collection;
    std::uint32_t depth = 0;
    for (NodeId a = v; a != kNoNode; a = parent_[a])
      ++depth;
    if (depth + piece.tree->node_count() > limits_.max_depth) return false;
    Node root = piece.tree->node(0);
    root.span.begin += piece.pos;
    root.span.end += piece.pos;
    root.line += piece.first_line;
    root.first_child += piece.children_base;
    g.nodes_[v] = root;
    for (NodeId at = v; parent_[at] != kNoNode; at = parent_[at]) {
      Node& up = g.nodes_[parent_[at]];
      if (g.children_[up.first_child + up.child_count - 1] != at) break;
      up.span.end = g.nodes_[at].span.end;
    }
    return true;
  }

  // Appends a piece's nodes (all but its root) with their new ids, offsets and
  // children.
  void add_piece(Tree& g, Piece& piece) const {
    const Tree& t = *piece.tree;
    piece.first_id = static_cast<NodeId>(g.nodes_.size());
    auto id = [&piece](NodeId local) { return piece.first_id + local - 1; };
    auto children_base = static_cast<std::uint32_t>(g.children_.size());
    piece.children_base = children_base;
    auto arena_base = static_cast<std::uint32_t>(g.arena_.size());
    for (NodeId c : t.children_)
      g.children_.push_back(c == 0 ? kNoNode : id(c));
    g.arena_ += t.arena_;
    for (std::size_t i = 1; i < t.nodes_.size(); ++i) {
      Node n = t.nodes_[i];
      n.span.begin += piece.pos;
      n.span.end += piece.pos;
      n.value_offset += n.value_in_text ? piece.pos : arena_base;
      n.line += piece.first_line;
      if (n.kind == Kind::Mapping || n.kind == Kind::Sequence) n.first_child += children_base;
      g.nodes_.push_back(n);
    }
  }

  std::vector<NodeId> parents() const {
    std::vector<NodeId> parent(base_.node_count(), kNoNode);
    for (NodeId id = 0; id < base_.node_count(); ++id) {
      const Node& n = node(id);
      if (n.kind != Kind::Mapping && n.kind != Kind::Sequence) continue;
      for (std::uint32_t i = 0; i < n.child_count; ++i)
        parent[child(n, i)] = id;
    }
    return parent;
  }

  // Gives collection `m` its children with the new ones among them, and its
  // span (and its ancestors' ends) the new extent.
  bool regroup(Tree& g, NodeId m, const std::vector<NodeId>& parent) const {
    const Node old = node(m);
    bool mapping = old.kind == Kind::Mapping;
    std::uint32_t per = mapping ? 2 : 1;
    std::uint32_t count = old.child_count / per;
    auto run = static_cast<std::uint32_t>(g.children_.size());
    std::uint32_t depth = 0;
    for (NodeId a = m; a != kNoNode; a = parent[a])
      ++depth;
    const Piece* first_piece = nullptr;
    const Piece* last_piece = nullptr;
    // Its pieces, in text order: their places (`before`) never go down.
    const std::vector<std::size_t>& mine = into_.at(m);
    std::size_t next = 0;
    for (std::uint32_t j = 0; j <= count; ++j) {
      for (; next < mine.size() && pieces_[mine[next]].insertion->before <= j; ++next) {
        const Piece& piece = pieces_[mine[next]];
        if (piece.insertion->before != j) return false;  // out of order: not grafted
        if (depth + piece.tree->node_count() > limits_.max_depth) return false;
        const Node& root = piece.tree->node(0);
        for (std::uint32_t i = 0; i < root.child_count; ++i)
          g.children_.push_back(piece.first_id + piece.tree->child(root.first_child + i) - 1);
        if (j == 0 && first_piece == nullptr) first_piece = &piece;
        if (j == count) last_piece = &piece;
      }
      if (j < count) {
        for (std::uint32_t i = 0; i < per; ++i)
          g.children_.push_back(child(old, j * per + i));
      }
    }
    Node& n = g.nodes_[m];
    n.first_child = run;
    n.child_count = static_cast<std::uint32_t>(g.children_.size()) - run;
    if (mapping && has_duplicate_keys(g, n)) return false;
    if (mapping) g.note_mapping(n.child_count / 2);
    if (first_piece != nullptr && !old.has_props) {
      const Node& root = first_piece->tree->node(0);
      // Its parent must not start where it does, or that start moves too.
      if (parent[m] != kNoNode && node(parent[m]).span.begin == old.span.begin) return false;
      n.span.begin = root.span.begin + first_piece->pos;
      n.line = root.line + first_piece->first_line;
    }
    if (last_piece != nullptr) {
      n.span.end = last_piece->tree->node(0).span.end + last_piece->pos;
      // A block collection ends where its last child does.
      for (NodeId at = m; parent[at] != kNoNode; at = parent[at]) {
        Node& up = g.nodes_[parent[at]];
        if (g.children_[up.first_child + up.child_count - 1] != at) break;
        up.span.end = g.nodes_[at].span.end;
      }
    }
    return true;
  }

  static bool has_duplicate_keys(const Tree& g, const Node& mapping) {
    std::vector<std::string_view> keys;
    for (std::uint32_t i = 0; i < mapping.child_count; i += 2) {
      const Node& key = g.nodes_[g.children_[mapping.first_child + i]];
      if (key.kind == Kind::Scalar) keys.push_back(g.value_of(key));
    }
    std::sort(keys.begin(), keys.end());
    return std::adjacent_find(keys.begin(), keys.end()) != keys.end();
  }

  const Tree& base_;
  std::string_view text_;
  std::string_view edited_;
  std::span<const Insertion> insertions_;
  const Limits& limits_;
  std::vector<Piece> pieces_;
  std::vector<NodeId> parent_;  // of the original's nodes (parents())
  Shifts shifts_;
  // Collection -> the pieces inserted into it, in text order.
  std::unordered_map<NodeId, std::vector<std::size_t>> into_;
};

std::optional<Tree> graft(const Tree& base, std::string_view edited,
                          std::span<const Insertion> insertions, const Limits& limits) {
  return Grafter(base, edited, insertions, limits).run();
}

namespace {

std::string describe(const Tree& t, NodeId id) {
  const Node& n = t.node(id);
  return "line " + std::to_string(n.line) + ", column " + std::to_string(n.column);
}

}  // namespace

std::string tree_difference(const Tree& a, const Tree& b) {
  if (a.root() && !b.root()) return "the second tree is empty";
  if (!a.root() && b.root()) return "the first tree is empty";
  std::vector<std::pair<NodeId, NodeId>> todo;
  if (a.root()) todo.emplace_back(a.root().id(), b.root().id());
  while (!todo.empty()) {
    auto [x, y] = todo.back();
    todo.pop_back();
    const Node& n = a.node(x);
    const Node& o = b.node(y);
    std::string where = describe(a, x) + " / " + describe(b, y);
    if (n.kind != o.kind || n.style != o.style) return where + ": kind or style";
    if (n.span.begin != o.span.begin || n.span.end != o.span.end) {
      return where + ": span " + std::to_string(n.span.begin) + "-" + std::to_string(n.span.end) +
             " vs " + std::to_string(o.span.begin) + "-" + std::to_string(o.span.end);
    }
    if (n.line != o.line || n.column != o.column) return where + ": position";
    if (a.tag_of(x) != b.tag_of(y) || a.anchor_of(x) != b.anchor_of(y))
      return where + ": tag or anchor";
    if (n.kind == Kind::Scalar || n.kind == Kind::Alias) {
      if (a.value_of(n) != b.value_of(o)) return where + ": value";
    }
    if (n.kind == Kind::Alias) {
      if (a.node(n.first_child).span.begin != b.node(o.first_child).span.begin)
        return where + ": alias target";
      continue;
    }
    if (n.kind == Kind::Scalar) continue;
    if (n.child_count != o.child_count) return where + ": number of children";
    for (std::uint32_t i = n.child_count; i-- > 0;)
      todo.emplace_back(a.child(n.first_child + i), b.child(o.first_child + i));
  }
  return {};
}

}  // namespace archfit::yaml
