#include <cmath>
#include <cstdio>

#include <archfit/edit/render.hpp>
#include <archfit/yaml/scalar.hpp>

namespace archfit::edit {

using yaml::Value;

namespace {

std::string spaces(int n) {
  return std::string(static_cast<std::size_t>(n > 0 ? n : 0), ' ');
}

bool is_collection(const Value& v) {
  return v.is_mapping() || v.is_sequence();
}

bool is_empty_collection(const Value& v) {
  return (v.is_mapping() && v.entries().empty()) || (v.is_sequence() && v.items().empty());
}

std::string key_text(const std::string& key, bool flow) {
  return yaml::emit_string(key, flow ? yaml::Context::Flow : yaml::Context::Key);
}

}  // namespace

std::string render_scalar(const Value& v, bool flow) {
  switch (v.type()) {
    case Value::Type::Null:
      return "null";
    case Value::Type::Bool:
      return v.as_bool() ? "true" : "false";
    case Value::Type::Int:
      return std::to_string(v.as_int());
    case Value::Type::Float: {
      double d = v.as_float();
      if (std::isnan(d)) return ".nan";
      if (std::isinf(d)) return d > 0 ? ".inf" : "-.inf";
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.17g", d);
      std::string s = buf;
      if (s.find_first_of(".e") == std::string::npos) s += ".0";
      return s;
    }
    case Value::Type::String:
      return yaml::emit_string(v.as_string(), flow ? yaml::Context::Flow : yaml::Context::Block);
    default:
      return render_flow(v);
  }
}

std::string render_flow(const Value& v) {
  if (v.is_mapping()) {
    std::string out = "{";
    bool first = true;
    for (const Value::Entry& e : v.entries()) {
      if (!first) out += ", ";
      first = false;
      out += key_text(e.first, true) + ": " + render_flow(e.second);
    }
    return out + "}";
  }
  if (v.is_sequence()) {
    std::string out = "[";
    bool first = true;
    for (const Value& item : v.items()) {
      if (!first) out += ", ";
      first = false;
      out += render_flow(item);
    }
    return out + "]";
  }
  return render_scalar(v, true);
}

std::string render_after_key(const Value& v, int key_column, const Layout& layout) {
  if (!is_collection(v)) return " " + render_scalar(v, false);
  if (is_empty_collection(v)) return v.is_mapping() ? " {}" : " []";
  if (v.is_mapping()) {
    int column = key_column + layout.indent;
    return layout.newline + spaces(column) + render_entries(v, column, layout);
  }
  int dash = key_column + (layout.indent_sequences ? layout.indent : 0);
  std::string out;
  for (const Value& item : v.items()) {
    out += layout.newline + spaces(dash) + "-" + render_item(item, dash, layout);
  }
  return out;
}

std::string render_entries(const Value& mapping, int column, const Layout& layout) {
  std::string out;
  bool first = true;
  for (const Value::Entry& e : mapping.entries()) {
    if (!first) out += layout.newline + spaces(column);
    first = false;
    out += key_text(e.first, false) + ":" + render_after_key(e.second, column, layout);
  }
  return out;
}

std::string render_item(const Value& v, int dash_column, const Layout& layout) {
  if (!is_collection(v)) return " " + render_scalar(v, false);
  if (is_empty_collection(v)) return v.is_mapping() ? " {}" : " []";
  int column = dash_column + 2;
  if (v.is_mapping()) return " " + render_entries(v, column, layout);
  // A sequence in a sequence: "- - a\n  - b".
  std::string out;
  bool first = true;
  for (const Value& item : v.items()) {
    out += first ? std::string(" -") : layout.newline + spaces(column) + "-";
    first = false;
    out += render_item(item, column, layout);
  }
  return out;
}

}  // namespace archfit::edit
