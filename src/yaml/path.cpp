#include <algorithm>
#include <charconv>

#include <rapidjson/document.h>

#include <archfit/base/error.hpp>
#include <archfit/base/text.hpp>
#include <archfit/yaml/path.hpp>

namespace archfit::yaml {

namespace {

bool is_alpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_key_char(char c) {
  return is_alpha(c) || is_digit(c) || c == '_' || c == '-';
}

// A key written without quotes reads back as itself.
bool is_plain_key(std::string_view key) {
  return !key.empty() && is_alpha(key[0]) && std::all_of(key.begin(), key.end(), is_key_char);
}

// The JSON string at text[pos] ('"' there): its value, and pos after it.
bool read_quoted(std::string_view text, std::size_t& pos, std::string& out) {
  std::size_t end = pos + 1;
  for (; end < text.size() && text[end] != '"'; ++end) {
    if (text[end] == '\\') ++end;
  }
  if (end >= text.size()) return false;
  rapidjson::Document doc;
  std::string_view json = text.substr(pos, end + 1 - pos);
  doc.Parse(json.data(), json.size());
  if (doc.HasParseError() || !doc.IsString()) return false;
  out.assign(doc.GetString(), doc.GetStringLength());
  pos = end + 1;
  return true;
}

}  // namespace

std::size_t read_path(std::string_view text, Path& out, std::string* why, std::size_t* stopped) {
  std::size_t pos = 0;
  auto fail_with = [&](const char* expected) {
    *why = expected;
    if (stopped != nullptr) *stopped = pos;
    return std::size_t{0};
  };
  do {
    if (pos < text.size() && text[pos] == '[') {
      ++pos;
      if (pos < text.size() && text[pos] == '"') {
        std::string key;
        if (!read_quoted(text, pos, key)) return fail_with("expected a quoted key");
        out.push_back(PathStep::of(std::move(key)));
      } else {
        std::size_t start = pos;
        while (pos < text.size() && is_digit(text[pos]))
          ++pos;
        if (pos == start || pos - start > 9) return fail_with("expected a number");
        out.push_back(PathStep::at(std::stoul(std::string(text.substr(start, pos - start)))));
      }
      if (pos >= text.size() || text[pos] != ']') return fail_with("expected ']'");
      ++pos;
      continue;
    }
    if (!out.empty()) {
      if (pos >= text.size() || text[pos] != '.') break;
      ++pos;
    }
    std::size_t start = pos;
    while (pos < text.size() && is_key_char(text[pos]))
      ++pos;
    if (pos == start) return fail_with("expected a field name");
    out.push_back(PathStep::of(std::string(text.substr(start, pos - start))));
  } while (pos < text.size() && (text[pos] == '.' || text[pos] == '['));
  return pos;
}

Path parse_path(std::string_view text) {
  Path out;
  if (text.empty()) return out;  // the root
  std::string why;
  std::size_t read = read_path(text, out, &why);
  if (read != text.size()) {
    if (read != 0) why = "unexpected text after the path";
    fail(ErrorKind::Input, quoted(text) + " is not a path: " + why);
  }
  return out;
}

std::string format_path(const Path& path, StepName name) {
  std::string out;
  append_path(out, path, name);
  return out;
}

void append_path(std::string& out, const Path& path, StepName name) {
  for (std::size_t i = 0; i < path.size(); ++i) {
    const PathStep& step = path[i];
    if (step.by_name) fail(ErrorKind::Internal, "this syntax names no list item by its name");
    if (step.is_index) {
      char digits[24];
      auto [end, ec] = std::to_chars(digits, digits + sizeof digits, step.index);
      out += '[';
      out.append(digits, end);
      out += ']';
    } else if (is_plain_key(step.key)) {
      if (i > 0) out += '.';
      out += name != nullptr ? name(path, i) : std::string_view(step.key);
    } else {
      out += '[';
      out += to_json(Value::string(step.key));
      out += ']';
    }
  }
}

Path operator/(Path path, std::string_view key) {
  path.push_back(PathStep::of(std::string(key)));
  return path;
}

Path operator/(Path path, PathStep step) {
  path.push_back(std::move(step));
  return path;
}

Path operator+(Path first, const Path& second) {
  first.insert(first.end(), second.begin(), second.end());
  return first;
}

std::string field_text(const Path& path) {
  std::string out;
  for (const PathStep& step : path) {
    if (step.is_index) {
      out += '[' + std::to_string(step.index) + ']';
    } else if (step.by_name) {
      out += '[' + quoted(step.key) + ']';
    } else {
      if (!out.empty()) out += '.';
      out += step.key;
    }
  }
  return out;
}

Path key_path(const std::vector<std::string>& keys) {
  Path out;
  out.reserve(keys.size());
  for (const std::string& k : keys)
    out.push_back(PathStep::of(k));
  return out;
}

NodeRef lookup(NodeRef node, const Path& path) {
  node = node.resolved();
  for (const PathStep& step : path) {
    if (step.is_index) {
      if (!node.is_sequence() || step.index >= node.size()) return NodeRef();
      node = node.item(step.index).resolved();
    } else if (step.by_name) {
      if (!node.is_sequence()) return NodeRef();
      NodeRef found;
      for (std::size_t i = 0; i < node.size() && !found; ++i) {
        NodeRef name = lookup(node.item(i).resolved(), "name").resolved();
        if (name.is_scalar() && name.scalar() == step.key) found = node.item(i).resolved();
      }
      node = found;
    } else {
      if (!node.is_mapping()) return NodeRef();
      node = lookup(node, step.key).resolved();
    }
    if (!node) return NodeRef();
  }
  return node;
}

const Value* lookup(const Value& value, const Path& path) {
  const Value* v = &value;
  for (const PathStep& step : path) {
    if (step.is_index) {
      if (!v->is_sequence() || step.index >= v->items().size()) return nullptr;
      v = &v->items()[step.index];
    } else if (step.by_name) {
      if (!v->is_sequence()) return nullptr;
      const Value* found = nullptr;
      for (const Value& item : v->items()) {
        const Value* name = item.is_mapping() ? item.find("name") : nullptr;
        if (name != nullptr && name->is_string() && name->as_string() == step.key) {
          found = &item;
          break;
        }
      }
      if (found == nullptr) return nullptr;
      v = found;
    } else {
      v = v->is_mapping() ? v->find(step.key) : nullptr;
      if (v == nullptr) return nullptr;
    }
  }
  return v;
}

Value* lookup(Value& value, const Path& path) {
  return const_cast<Value*>(lookup(static_cast<const Value&>(value), path));
}

}  // namespace archfit::yaml
