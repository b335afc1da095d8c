// YAML as data: what a document means once styles, comments, anchors and merge
// keys are gone. Used to check that an edit changed exactly what it meant to,
// and to build new content before it is rendered as text.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include <archfit/base/key_index.hpp>
#include <archfit/yaml/node.hpp>
#include <archfit/yaml/parse.hpp>

namespace archfit::yaml {

class Value;

// A mapping's entries in document order, keys unique. A mapping of more than
// a few entries is looked up through a KeyIndex, so that finding, setting or
// comparing keys costs the same whatever their number (a template with
// 50,000 annotations is read, planned and proved in linear time).
class Mapping {
 public:
  using Entry = std::pair<std::string, Value>;
  using const_iterator = std::vector<Entry>::const_iterator;
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);

  Mapping() = default;
  Mapping(const Mapping& other);
  Mapping& operator=(const Mapping& other);
  Mapping(Mapping&&) noexcept = default;
  Mapping& operator=(Mapping&&) noexcept = default;
  ~Mapping();

  std::size_t size() const;
  bool empty() const;
  const Entry& operator[](std::size_t i) const;
  const_iterator begin() const;
  const_iterator end() const;

  // The place of `key`, or npos.
  std::size_t index_of(std::string_view key) const;
  // The value at place i, to change (its key stays).
  Value& value_at(std::size_t i);

  // Adds an entry at the end; its key must not be there yet.
  Entry& emplace_back(std::string key, Value value);
  Entry& push_back(Entry entry);
  // Adds an entry before place `at` (size(): at the end); its key must not be there yet.
  void insert(std::size_t at, Entry entry);
  void erase(std::size_t at);
  void clear();

 private:
  // Mappings up to this size are scanned: as fast as a lookup, and no index.
  static constexpr std::size_t kScanned = 16;
  void index_from(std::size_t first);

  std::vector<Entry> entries_;
  std::unique_ptr<KeyIndex> index_;  // once more than kScanned entries
};

class Value {
 public:
  enum class Type : std::uint8_t { Null, Bool, Int, Float, String, Sequence, Mapping };
  using Sequence = std::vector<Value>;
  using Entry = yaml::Mapping::Entry;
  using Mapping = yaml::Mapping;

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

inline std::size_t Mapping::size() const {
  return entries_.size();
}
inline bool Mapping::empty() const {
  return entries_.empty();
}
inline const Mapping::Entry& Mapping::operator[](std::size_t i) const {
  return entries_[i];
}
inline Mapping::const_iterator Mapping::begin() const {
  return entries_.begin();
}
inline Mapping::const_iterator Mapping::end() const {
  return entries_.end();
}
inline Value& Mapping::value_at(std::size_t i) {
  return entries_[i].second;
}
inline Mapping::Entry& Mapping::push_back(Entry entry) {
  return emplace_back(std::move(entry.first), std::move(entry.second));
}

// The data a node stands for, as Kubernetes reads it: aliases expanded, merge
// keys (`<<`) applied, keys turned into strings. Throws Error(Input) when
// expanding aliases would produce more than limits.max_alias_expansion nodes.
Value to_value(NodeRef node, const Limits& limits = {});
// How many values to_value would make of the node (aliases expanded), or
// `most` + 1 when more: counted without making them, and without counting on.
std::size_t count_values(NodeRef node, std::size_t most);

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
