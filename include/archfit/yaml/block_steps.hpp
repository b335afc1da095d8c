// How a document indents its block collections, counted: what an editor
// needs to write new text that looks like the text around it
// (edit/layout.hpp). Counted from a parsed tree, or from libyaml's events
// when a document is read without one (a list read item by item).
#pragma once

#include <map>

#include <archfit/yaml/node.hpp>

namespace archfit::yaml {

struct BlockSteps {
  // A block mapping's value that is a block mapping on a line of its own:
  // how many columns it stands right of its key, and how often.
  std::map<int, int> mapping_steps;
  // A block sequence on a line of its own: indented right of its key, or not.
  int sequences_indented = 0;
  int sequences_flush = 0;

  // One key and its value (1-based columns and lines, as Node has them).
  void count(std::uint32_t key_line, std::uint32_t key_column, Kind value_kind, Style value_style,
             std::uint32_t value_line, std::uint32_t value_column) {
    if (value_style != Style::Block || value_line == key_line) return;
    const int step = static_cast<int>(value_column) - static_cast<int>(key_column);
    if (value_kind == Kind::Mapping && step > 0) ++mapping_steps[step];
    if (value_kind == Kind::Sequence) ++(step > 0 ? sequences_indented : sequences_flush);
  }
};

// The steps of every block mapping of the tree.
BlockSteps block_steps(const Tree& tree);

}  // namespace archfit::yaml
