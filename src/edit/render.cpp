#include <cmath>
#include <cstdio>

#include <archfit/edit/render.hpp>
#include <archfit/yaml/scalar.hpp>
#include <archfit/yaml/value.hpp>

namespace archfit::edit {

using yaml::Value;

namespace {

// The renderers append to one string; the public functions below wrap them.
void add_spaces(std::string& out, int n) {
  out.append(static_cast<std::size_t>(n > 0 ? n : 0), ' ');
}

void add_line(std::string& out, const Layout& layout, int column) {
  out += layout.newline;
  add_spaces(out, column);
}

bool is_collection(const Value& v) {
  return v.is_mapping() || v.is_sequence();
}

bool is_empty_collection(const Value& v) {
  return (v.is_mapping() && v.entries().empty()) || (v.is_sequence() && v.items().empty());
}

void add_key(std::string& out, const std::string& key, bool flow) {
  out += yaml::emit_string(key, flow ? yaml::Context::Flow : yaml::Context::Key);
}

void add_flow(std::string& out, const Value& v);

void add_scalar(std::string& out, const Value& v, bool flow) {
  switch (v.type()) {
    case Value::Type::Null:
      out += v.null_text() ? *v.null_text() : std::string("null");
      return;
    case Value::Type::Bool:
      out += v.as_bool() ? "true" : "false";
      return;
    case Value::Type::Int:
      out += std::to_string(v.as_int());
      return;
    case Value::Type::Float: {
      double d = v.as_float();
      if (std::isnan(d)) {
        out += ".nan";
      } else if (std::isinf(d)) {
        out += d > 0 ? ".inf" : "-.inf";
      } else {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.17g", d);
        std::string_view text = buf;
        out += text;
        if (text.find_first_of(".e") == std::string_view::npos) out += ".0";
      }
      return;
    }
    case Value::Type::String:
      out += yaml::emit_string(v.as_string(), flow ? yaml::Context::Flow : yaml::Context::Block);
      return;
    default:
      add_flow(out, v);
  }
}

void add_flow(std::string& out, const Value& v) {
  if (v.is_mapping()) {
    out += '{';
    bool first = true;
    for (const Value::Entry& e : v.entries()) {
      if (!first) out += ", ";
      first = false;
      add_key(out, e.first, true);
      out += ": ";
      add_flow(out, e.second);
    }
    out += '}';
  } else if (v.is_sequence()) {
    out += '[';
    bool first = true;
    for (const Value& item : v.items()) {
      if (!first) out += ", ";
      first = false;
      add_flow(out, item);
    }
    out += ']';
  } else {
    add_scalar(out, v, true);
  }
}

// JSON in the spacing of flow YAML ("key": value, items after ", "), so that
// it reads like the text around it. Scalars are written as yaml::to_json does.
void add_json(std::string& out, const Value& v) {
  if (v.is_mapping() || v.is_sequence()) {
    bool mapping = v.is_mapping();
    out += mapping ? '{' : '[';
    std::size_t n = mapping ? v.entries().size() : v.items().size();
    for (std::size_t i = 0; i < n; ++i) {
      if (i > 0) out += ", ";
      if (mapping) {
        add_json(out, Value::string(v.entries()[i].first));
        out += ": ";
        add_json(out, v.entries()[i].second);
      } else {
        add_json(out, v.items()[i]);
      }
    }
    out += mapping ? '}' : ']';
    return;
  }
  out += yaml::to_json(v);
}

void add_entries(std::string& out, const Value& mapping, int column, const Layout& layout);
void add_item(std::string& out, const Value& v, int dash_column, const Layout& layout);

void add_after_key(std::string& out, const Value& v, int key_column, const Layout& layout) {
  if (v.is_null() && v.null_text() && v.null_text()->empty()) return;  // "key:" and nothing
  if (!is_collection(v)) {
    out += ' ';
    add_scalar(out, v, false);
  } else if (is_empty_collection(v)) {
    out += v.is_mapping() ? " {}" : " []";
  } else if (v.is_mapping()) {
    int column = key_column + layout.indent;
    add_line(out, layout, column);
    add_entries(out, v, column, layout);
  } else {
    int dash = key_column + (layout.indent_sequences ? layout.indent : 0);
    for (const Value& item : v.items()) {
      add_line(out, layout, dash);
      out += '-';
      add_item(out, item, dash, layout);
    }
  }
}

void add_entries(std::string& out, const Value& mapping, int column, const Layout& layout) {
  bool first = true;
  for (const Value::Entry& e : mapping.entries()) {
    if (!first) add_line(out, layout, column);
    first = false;
    add_key(out, e.first, false);
    out += ':';
    add_after_key(out, e.second, column, layout);
  }
}

void add_item(std::string& out, const Value& v, int dash_column, const Layout& layout) {
  if (!is_collection(v) || is_empty_collection(v)) return add_after_key(out, v, 0, layout);
  int column = dash_column + 2;
  if (v.is_mapping()) {
    out += ' ';
    return add_entries(out, v, column, layout);
  }
  // A sequence in a sequence: "- - a\n  - b".
  bool first = true;
  for (const Value& item : v.items()) {
    if (first) {
      out += " -";
    } else {
      add_line(out, layout, column);
      out += '-';
    }
    first = false;
    add_item(out, item, column, layout);
  }
}

}  // namespace

std::string render_flow(const Value& v, bool json) {
  std::string out;
  if (json) {
    add_json(out, v);
  } else {
    add_flow(out, v);
  }
  return out;
}

std::string render_after_key(const Value& v, int key_column, const Layout& layout) {
  std::string out;
  add_after_key(out, v, key_column, layout);
  return out;
}

std::string render_entries(const Value& mapping, int column, const Layout& layout) {
  std::string out;
  add_entries(out, mapping, column, layout);
  return out;
}

std::string render_item(const Value& v, int dash_column, const Layout& layout) {
  std::string out;
  add_item(out, v, dash_column, layout);
  return out;
}

}  // namespace archfit::edit
