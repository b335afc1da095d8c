// Writing new YAML text for a value: block style laid out like the document,
// or flow style for places that are already flow.
#pragma once

#include <string>

#include <archfit/edit/layout.hpp>
#include <archfit/yaml/value.hpp>

namespace archfit::edit {

// Flow style: {key: value, list: [a, b]}; with `json`, JSON:
// {"key": "value", "list": ["a", "b"]}.
std::string render_flow(const yaml::Value& v, bool json = false);

// What follows "key:" for this value when the key sits at `key_column`
// (0-based): " scalar", " {}" / " []" for empty collections, or a line break
// and the block lines of a mapping or sequence. Ends without a line break.
std::string render_after_key(const yaml::Value& v, int key_column, const Layout& layout);

// A block mapping's entries, the first starting at `column` (its indentation
// already written), the rest on lines of their own. Ends without a line break.
std::string render_entries(const yaml::Value& mapping, int column, const Layout& layout);

// One block sequence item, "- " already written at `dash_column`: the value
// that follows the dash. Ends without a line break.
std::string render_item(const yaml::Value& v, int dash_column, const Layout& layout);

}  // namespace archfit::edit
