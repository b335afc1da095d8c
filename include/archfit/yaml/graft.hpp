// The tree of an edited document without parsing all of it again.
//
// When an edit only inserts whole lines that hold new entries of a block
// mapping (or new items of a block sequence), the rest of the document reads
// as before: block structure is decided line by line by indentation, and new
// lines at the collection's own column, after a neighbour that ends cleanly
// and before one that starts a line, neither continue nor absorb anything
// around them. graft() checks that this holds for each insertion, parses only
// the inserted lines, and builds the edited document's tree from the
// original's nodes (moved to their new offsets and lines) and the new ones.
// The same holds for a key's empty value `{}` or `[]` at the end of its line
// written out as lines of a block collection below the key: the new node
// takes the empty one's place.
// The result is exactly the tree parse_document would build from the edited
// text; where that cannot be shown, graft() declines and the caller parses.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include <archfit/yaml/node.hpp>
#include <archfit/yaml/parse.hpp>

namespace archfit::yaml {

// New lines in a block collection, or (`end` > `at`) a key's empty value
// written out as a block collection.
struct Insertion {
  NodeId collection = kNoNode;  // a block mapping or sequence of the original tree
  std::size_t before = 0;       // its entries (or items) that stay in front of the new ones
  std::uint32_t at = 0;         // where the lines go in the original text: a line start
  std::string_view lines;       // whole lines, the last ending with a line break
  // A replacement when greater than `at`: the original text [at, end), a
  // block mapping entry's value `{}` or `[]` (`collection`, without tag or
  // anchor) and the blanks after its key's ':', where the value ends its
  // line. `lines` is then a line break and whole lines of a block collection
  // of the same kind, the last without its break (the original's follows).
  std::uint32_t end = 0;
};

// The tree of `edited`, which must be the text of `base` with `insertions`
// applied in the order given (by position; several at one position in the
// order their text follows each other). nullopt when an insertion is not of
// the kind above or its meaning could depend on its surroundings, when its
// lines do not parse alone, or when the result would break a limit.
std::optional<Tree> graft(const Tree& base, std::string_view edited,
                          std::span<const Insertion> insertions, const Limits& limits = {});
// The tree points into `edited`: a temporary does not compile.
std::optional<Tree> graft(const Tree& base, std::string&& edited,
                          std::span<const Insertion> insertions,
                          const Limits& limits = {}) = delete;

// "" when the two trees are the same node for node (kind, style, span, line,
// column, value, tag, anchor, children); else where they first differ.
std::string tree_difference(const Tree& a, const Tree& b);

}  // namespace archfit::yaml
