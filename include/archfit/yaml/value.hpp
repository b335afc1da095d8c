// YAML as data: what a document means once styles, comments, anchors and merge
// keys are gone. Used to check that an edit changed exactly what it meant to,
// and to build new content before it is rendered as text.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include <archfit/yaml/node.hpp>
#include <archfit/yaml/parse.hpp>

namespace archfit::yaml {

class Value {
 public:
  enum class Type : std::uint8_t { Null, Bool, Int, Float, String, Sequence, Mapping };
  using Sequence = std::vector<Value>;
  using Entry = std::pair<std::string, Value>;
  using Mapping = std::vector<Entry>;  // in document order; keys are unique

  Value() = default;  // null
  // A null as the document writes it ("~", "null", or "" for an empty
  // value), so that it can be written back the same way. Equal to Value().
  static Value null_written(std::string text);
  static Value boolean(bool b);
  static Value integer(std::int64_t i);
  static Value real(double d);
  static Value string(std::string s);
  static Value sequence(Sequence items = {});
  static Value mapping(Mapping entries = {});

  Type type() const { return static_cast<Type>(data_.index()); }
  bool is_null() const { return type() == Type::Null; }
  bool is_string() const { return type() == Type::String; }
  bool is_sequence() const { return type() == Type::Sequence; }
  bool is_mapping() const { return type() == Type::Mapping; }

  // How a null was written; nullopt when not known (or not a null).
  const std::optional<std::string>& null_text() const;
  bool as_bool() const { return std::get<bool>(data_); }
  std::int64_t as_int() const { return std::get<std::int64_t>(data_); }
  double as_float() const { return std::get<double>(data_); }
  const std::string& as_string() const { return std::get<std::string>(data_); }
  const Sequence& items() const { return std::get<Sequence>(data_); }
  Sequence& items() { return std::get<Sequence>(data_); }
  const Mapping& entries() const { return std::get<Mapping>(data_); }
  Mapping& entries() { return std::get<Mapping>(data_); }

  // Mapping access; nullptr when absent or not a mapping.
  const Value* find(std::string_view key) const;
  Value* find(std::string_view key);
  // Sets `key` (replacing its value in place, or appending). Must be a mapping.
  Value& set(std::string key, Value value);
  bool erase(std::string_view key);

  // Equality as data: mappings regardless of key order, numbers by value.
  friend bool operator==(const Value& a, const Value& b);

 private:
  struct Null {
    std::optional<std::string> text;
  };
  std::variant<Null, bool, std::int64_t, double, std::string, Sequence, Mapping> data_;
};

// The data a node stands for, as Kubernetes reads it: aliases expanded, merge
// keys (`<<`) applied, keys turned into strings. Throws Error(Input) when
// expanding aliases would produce more than limits.max_alias_expansion nodes.
Value to_value(NodeRef node, const Limits& limits = {});

// The string a mapping key becomes in to_value: `no` is "false", `0x10` is
// "16", `~` is "null", text keys are themselves.
std::string key_text(NodeRef key);
// The index of the entry of `mapping` whose key_text is `key` (the last one
// when keys repeat); NodeRef::npos when none. NodeRef::find compares the
// written text instead.
std::size_t find_key(NodeRef mapping, std::string_view key);

// to_value(node, limits) == value, without building the node's Value where it
// needs no expansion (no aliases, merge keys, duplicate keys or keys that are
// not strings); such nodes are converted as to_value does and compared.
bool equals(NodeRef node, const Value& value, const Limits& limits = {});

// Compact JSON, written by RapidJSON's writer (src/yaml/json.cpp): for
// messages, findings and tests with mapping keys as they are, and Sorted for
// the canonical form that ownership hashes. A NaN or infinity writes null.
enum class KeyOrder : std::uint8_t { AsWritten, Sorted };
std::string to_json(const Value& value, KeyOrder order = KeyOrder::AsWritten);
// The 64-bit FNV-1a hash of to_json(value, order), without writing it out.
std::uint64_t json_fnv1a(const Value& value, KeyOrder order);

}  // namespace archfit::yaml
