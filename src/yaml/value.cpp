#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>

#include <archfit/base/error.hpp>
#include <archfit/yaml/scalar.hpp>
#include <archfit/yaml/value.hpp>

#include "yaml/key_indexes.hpp"

namespace archfit::yaml {

Value Value::null_written(std::string text) {
  Value v;
  v.data_ = Null{std::move(text)};
  return v;
}

const std::optional<std::string>& Value::null_text() const {
  static const std::optional<std::string> none;
  return is_null() ? std::get<Null>(data_).text : none;
}

Value Value::boolean(bool b) {
  Value v;
  v.data_ = b;
  return v;
}
Value Value::integer(std::int64_t i) {
  Value v;
  v.data_ = i;
  return v;
}
Value Value::real(double d) {
  Value v;
  v.data_ = d;
  return v;
}
Value Value::string(std::string s) {
  Value v;
  v.data_ = std::move(s);
  return v;
}
Value Value::sequence(Sequence items) {
  Value v;
  v.data_ = std::move(items);
  return v;
}
Value Value::mapping(Mapping entries) {
  Value v;
  v.data_ = std::move(entries);
  return v;
}

Mapping::Mapping(const Mapping& other) : entries_(other.entries_) {
  if (other.index_) index_ = std::make_unique<KeyIndex>(*other.index_);
}

Mapping& Mapping::operator=(const Mapping& other) {
  if (this != &other) {
    entries_ = other.entries_;
    index_ = other.index_ ? std::make_unique<KeyIndex>(*other.index_) : nullptr;
  }
  return *this;
}

Mapping::~Mapping() = default;

std::size_t Mapping::index_of(std::string_view key) const {
  if (index_) {
    std::uint32_t at =
        index_->find(key, [this](std::uint32_t i) { return std::string_view(entries_[i].first); });
    return at == KeyIndex::npos ? npos : at;
  }
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    if (entries_[i].first == key) return i;
  }
  return npos;
}

void Mapping::index_from(std::size_t first) {
  if (entries_.size() <= kScanned) {
    index_.reset();
    return;
  }
  if (!index_) {
    index_ = std::make_unique<KeyIndex>();
    first = 0;
  }
  for (std::size_t i = first; i < entries_.size(); ++i) {
    index_->put(entries_[i].first, static_cast<std::uint32_t>(i),
                [this](std::uint32_t j) { return std::string_view(entries_[j].first); });
  }
}

Mapping::Entry& Mapping::emplace_back(std::string key, Value value) {
  entries_.emplace_back(std::move(key), std::move(value));
  index_from(entries_.size() - 1);
  return entries_.back();
}

void Mapping::insert(std::size_t at, Entry entry) {
  if (at >= entries_.size()) {
    push_back(std::move(entry));
    return;
  }
  entries_.insert(entries_.begin() + static_cast<std::ptrdiff_t>(at), std::move(entry));
  // The places after it moved.
  if (index_) index_->clear();
  index_from(0);
}

void Mapping::erase(std::size_t at) {
  entries_.erase(entries_.begin() + static_cast<std::ptrdiff_t>(at));
  if (index_) index_->clear();
  index_from(0);
}

void Mapping::clear() {
  entries_.clear();
  index_.reset();
}

const Value* Value::find(std::string_view key) const {
  if (!is_mapping()) return nullptr;
  const Mapping& m = entries();
  std::size_t i = m.index_of(key);
  return i == Mapping::npos ? nullptr : &m[i].second;
}

Value* Value::find(std::string_view key) {
  if (!is_mapping()) return nullptr;
  Mapping& m = entries();
  std::size_t i = m.index_of(key);
  return i == Mapping::npos ? nullptr : &m.value_at(i);
}

Value& Value::set(std::string key, Value value) {
  Mapping& m = entries();
  std::size_t i = m.index_of(key);
  if (i != Mapping::npos) {
    m.value_at(i) = std::move(value);
    return m.value_at(i);
  }
  return m.emplace_back(std::move(key), std::move(value)).second;
}

bool Value::erase(std::string_view key) {
  if (!is_mapping()) return false;
  Mapping& m = entries();
  std::size_t i = m.index_of(key);
  if (i == Mapping::npos) return false;
  m.erase(i);
  return true;
}

bool operator==(const Value& a, const Value& b) {
  if (a.type() != b.type()) {
    // 1 and 1.0 are the same number in JSON.
    if (a.type() == Value::Type::Int && b.type() == Value::Type::Float) {
      return static_cast<double>(a.as_int()) == b.as_float();
    }
    if (a.type() == Value::Type::Float && b.type() == Value::Type::Int) return b == a;
    return false;
  }
  switch (a.type()) {
    case Value::Type::Null:
      return true;
    case Value::Type::Bool:
      return a.as_bool() == b.as_bool();
    case Value::Type::Int:
      return a.as_int() == b.as_int();
    case Value::Type::Float:
      return a.as_float() == b.as_float() || (std::isnan(a.as_float()) && std::isnan(b.as_float()));
    case Value::Type::String:
      return a.as_string() == b.as_string();
    case Value::Type::Sequence:
      return a.items() == b.items();
    case Value::Type::Mapping: {
      if (a.entries().size() != b.entries().size()) return false;
      for (const Value::Entry& e : a.entries()) {
        const Value* other = b.find(e.first);
        if (other == nullptr || !(*other == e.second)) return false;
      }
      return true;
    }
  }
  return false;
}

namespace {

// How many values reading the tree of `node` may produce: every node it
// holds, and what aliases add up to the limit. A large document written out
// in full is read; an alias bomb is not.
std::size_t allowance(NodeRef node, const Limits& limits) {
  return node.tree()->node_count() + limits.max_alias_expansion;
}

class Converter {
 public:
  explicit Converter(const Limits& limits) : limits_(limits) {}

  Value convert(NodeRef node, std::uint32_t depth) {
    if (allowance_ == 0) allowance_ = allowance(node, limits_);
    if (++produced_ > allowance_ || depth > limits_.max_depth) {
      Location where;
      where.line = node.line();
      where.column = node.column();
      fail(ErrorKind::Input,
           depth > limits_.max_depth ? "cannot read YAML: it nests deeper than " +
                                           std::to_string(limits_.max_depth) + " levels"
                                     : "cannot read YAML: aliases expand to more than " +
                                           std::to_string(limits_.max_alias_expansion) + " nodes",
           where);
    }
    node = node.resolved();
    switch (node.kind()) {
      case Kind::Scalar:
        return scalar(node);
      case Kind::Sequence: {
        Value::Sequence items;
        items.reserve(node.size());
        for (std::size_t i = 0; i < node.size(); ++i)
          items.push_back(convert(node.item(i), depth + 1));
        return Value::sequence(std::move(items));
      }
      case Kind::Mapping:
        return mapping(node, depth);
      case Kind::Alias:
        break;  // resolved above
    }
    return Value();
  }

 private:
  static Value scalar(NodeRef node) {
    Resolved r = node.resolve();
    switch (r.type) {
      case ScalarType::Null:
        // Kept as written so that a null archfit fills can be given back.
        return node.node().has_props ? Value() : Value::null_written(std::string(node.text()));
      case ScalarType::Bool:
        return Value::boolean(r.boolean);
      case ScalarType::Int:
        // Beyond int64 JSON has only doubles; compare such numbers that way.
        if (r.is_big) return Value::real(std::strtod(std::string(node.scalar()).c_str(), nullptr));
        if (r.is_unsigned) {
          return Value::real(static_cast<double>(static_cast<std::uint64_t>(r.integer)));
        }
        return Value::integer(r.integer);
      case ScalarType::Float:
        return Value::real(r.real);
      case ScalarType::String:
      case ScalarType::Merge:
        break;
    }
    return Value::string(std::string(node.scalar()));
  }

 public:
  // The string a key becomes (key_text).
  std::string key_string(NodeRef key, std::uint32_t depth) {
    key = key.resolved();
    if (key.is_scalar()) {
      Resolved r = key.resolve();
      switch (r.type) {
        case ScalarType::Null:
          return "null";
        case ScalarType::Bool:
          return r.boolean ? "true" : "false";
        case ScalarType::Int:
          return r.is_unsigned ? std::to_string(static_cast<std::uint64_t>(r.integer))
                               : std::to_string(r.integer);
        default:
          return std::string(key.scalar());
      }
    }
    // A collection used as a key: keep it distinguishable and stable.
    return to_json(convert(key, depth + 1));
  }

 private:
  Value mapping(NodeRef node, std::uint32_t depth) {
    Value out = Value::mapping();
    std::vector<Value> merges;
    for (std::size_t i = 0; i < node.size(); ++i) {
      NodeRef k = node.key(i);
      if (is_merge_key(k)) {
        NodeRef v = node.value(i).resolved();
        if (v.is_sequence()) {
          for (std::size_t j = 0; j < v.size(); ++j)
            merges.push_back(convert(v.item(j), depth + 1));
        } else {
          merges.push_back(convert(v, depth + 1));
        }
        continue;
      }
      out.set(key_string(k, depth), convert(node.value(i), depth + 1));
    }
    // Explicit keys win over merged ones; earlier merge sources win over later.
    for (const Value& source : merges) {
      if (!source.is_mapping()) continue;
      for (const Value::Entry& e : source.entries()) {
        if (out.find(e.first) == nullptr) out.set(e.first, e.second);
      }
    }
    return out;
  }

  Limits limits_;  // a copy: callers may pass a temporary
  std::size_t allowance_ = 0;
  std::size_t produced_ = 0;
};

// The direct comparison of equals(): the answer, or nullopt when the node needs
// the full conversion. Counts nodes as Converter does, so that the limits give
// the same verdict.
class Comparer {
 public:
  explicit Comparer(const Limits& limits) : limits_(limits) {}

  std::optional<bool> equal(NodeRef node, const Value& v, std::uint32_t depth) {
    if (allowance_ == 0) allowance_ = allowance(node, limits_);
    if (++seen_ > allowance_ || depth > limits_.max_depth) return std::nullopt;
    switch (node.kind()) {
      case Kind::Scalar:
        return scalar(node, v);
      case Kind::Sequence: {
        // Aliases among the items do not change their number.
        if (!v.is_sequence() || v.items().size() != node.size()) return false;
        bool all = true;
        for (std::size_t i = 0; i < node.size(); ++i) {
          std::optional<bool> same = equal(node.item(i), v.items()[i], depth + 1);
          if (!same) return std::nullopt;
          all = all && *same;
        }
        return all;
      }
      case Kind::Mapping:
        return mapping(node, v, depth);
      case Kind::Alias:
        break;
    }
    return std::nullopt;
  }

 private:
  static std::optional<bool> scalar(NodeRef node, const Value& v) {
    Resolved r = node.resolve();
    switch (r.type) {
      case ScalarType::Null:
        return v.is_null();
      case ScalarType::Bool:
        return v.type() == Value::Type::Bool && v.as_bool() == r.boolean;
      case ScalarType::Int:
        if (r.is_big || r.is_unsigned) return std::nullopt;
        if (v.type() == Value::Type::Int) return v.as_int() == r.integer;
        if (v.type() == Value::Type::Float) return v.as_float() == static_cast<double>(r.integer);
        return false;
      case ScalarType::Float:
        return Value::real(r.real) == v;
      case ScalarType::String:
      case ScalarType::Merge:
        break;
    }
    return v.is_string() && v.as_string() == node.scalar();
  }

  std::optional<bool> mapping(NodeRef node, const Value& v, std::uint32_t depth) {
    if (!v.is_mapping()) return false;
    const Value::Mapping& entries = v.entries();
    if (node.size() > 64 || entries.size() > 64) return std::nullopt;
    // Each key must be a string key matching a distinct entry of v (merge
    // and duplicate keys need the conversion).
    std::uint64_t matched = 0;
    bool all = true;
    for (std::size_t i = 0; i < node.size(); ++i) {
      NodeRef k = node.key(i);
      if (!k.is_scalar() || k.resolve().type != ScalarType::String) return std::nullopt;
      std::string_view key = k.scalar();
      auto it = std::find_if(entries.begin(), entries.end(),
                             [key](const Value::Entry& e) { return e.first == key; });
      if (it == entries.end()) return false;  // nothing takes a key away
      const std::uint64_t bit = std::uint64_t{1} << (it - entries.begin());
      if (matched & bit) return std::nullopt;  // a duplicate key
      matched |= bit;
      std::optional<bool> same = equal(node.value(i), it->second, depth + 1);
      if (!same) return std::nullopt;
      all = all && *same;
    }
    // The node's keys are distinct and all in v: v must have no others.
    return all && static_cast<std::size_t>(std::popcount(matched)) == entries.size();
  }

  Limits limits_;  // a copy: callers may pass a temporary
  std::size_t allowance_ = 0;
  std::size_t seen_ = 0;
};

}  // namespace

bool equals(NodeRef node, const Value& value, const Limits& limits) {
  if (!node) return value.is_null();
  if (std::optional<bool> same = Comparer(limits).equal(node, value, 0)) return *same;
  return to_value(node, limits) == value;
}

std::string key_text(NodeRef key) {
  Converter converter(Limits{});
  return converter.key_string(key, 0);
}

std::size_t find_key(NodeRef mapping, std::string_view key) {
  mapping = mapping.resolved();
  if (!mapping.is_mapping()) return NodeRef::npos;
  if (mapping.size() > Tree::kScannedKeys && mapping.tree()->key_indexes() != nullptr) {
    const Tree::KeyIndexes::AsData& index =
        mapping.tree()->key_indexes()->as_data(mapping, [](NodeRef k) { return key_text(k); });
    std::uint32_t at = index.keys.find(key, [&index](std::uint32_t i) { return index.text[i]; });
    return at == KeyIndex::npos ? NodeRef::npos : at;
  }
  std::size_t found = NodeRef::npos;
  for (std::size_t i = 0; i < mapping.size(); ++i) {
    NodeRef k = mapping.key(i).resolved();
    // Text keys (nearly all) are compared as written, without resolving them.
    bool same = k.is_scalar() && k.style() != Style::Plain ? k.scalar() == key : key_text(k) == key;
    if (same) found = i;
  }
  return found;
}

std::size_t count_values(NodeRef node, std::size_t most) {
  std::size_t count = 0;
  std::vector<NodeRef> left;
  if (node) left.push_back(node);
  while (!left.empty() && count <= most) {
    NodeRef n = left.back().resolved();
    left.pop_back();
    ++count;
    // Each child is a value at least: a collection too large says so at once,
    // and what waits to be counted never holds more than `most`.
    if ((n.is_sequence() || n.is_mapping()) && count + left.size() + n.size() > most) {
      return most + 1;
    }
    if (n.is_sequence()) {
      for (std::size_t i = n.size(); i-- > 0;)
        left.push_back(n.item(i));
    } else if (n.is_mapping()) {
      for (std::size_t i = n.size(); i-- > 0;)
        left.push_back(n.value(i));
    }
  }
  return count;
}

Value to_value(NodeRef node, const Limits& limits) {
  if (!node) return Value();
  Converter converter(limits);
  return converter.convert(node, 0);
}

}  // namespace archfit::yaml
