// How a document lays out its block collections, so that text archfit adds
// looks like the text around it: indentation step, whether sequence items are
// indented under their key, and the line ending.
#pragma once

#include <string>

#include <archfit/yaml/node.hpp>

namespace archfit::edit {

struct Layout {
  int indent = 2;                 // spaces per level of block mappings
  bool indent_sequences = false;  // "key:\n  - item" (true) or "key:\n- item" (false)
  std::string newline = "\n";
};

// The layout most of the document uses; the defaults where it says nothing.
Layout detect_layout(const yaml::Tree& tree);

}  // namespace archfit::edit
