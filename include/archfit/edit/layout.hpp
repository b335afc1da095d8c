// How a document lays out its block collections, so that text archfit adds
// looks like the text around it: indentation step, whether sequence items are
// indented under their key, the line ending, and whether it is JSON.
#pragma once

#include <string>
#include <string_view>

#include <archfit/yaml/block_steps.hpp>
#include <archfit/yaml/node.hpp>

namespace archfit::edit {

struct Layout {
  int indent = 2;                 // spaces per level of block mappings
  bool indent_sequences = false;  // "key:\n  - item" (true) or "key:\n- item" (false)
  std::string newline = "\n";
  // The document is JSON (a flow mapping with double-quoted keys): text
  // archfit adds is JSON too.
  bool json = false;
};

// The layout most of the document uses; the defaults where it says nothing.
Layout detect_layout(const yaml::Tree& tree);

// The same from its steps counted and its text (whose first line break is
// the newline); `json`: the document is a JSON object (is_json_document).
Layout layout_of(const yaml::BlockSteps& steps, std::string_view text, bool json);
bool is_json_document(const yaml::Tree& tree);

}  // namespace archfit::edit
