// Typed reads of configuration values with their place in the file. A Field
// is one value (a YAML node) and the dotted path that names it in messages;
// every read that fails throws Error(Config) at the node's line and column:
//   .archfit.yaml:7:9: placement.mode: "affinty" is not a mode; use one of ...
//
// Values of a ConfigMap's `data` are strings ("flat" fields). Scalars are read
// from the string's text, lists from comma-separated text or a YAML flow list,
// and maps from YAML text parsed in place, with positions mapped back into the
// file where that can be done exactly (single-line values, literal blocks).
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <archfit/base/error.hpp>
#include <archfit/image/platform_set.hpp>
#include <archfit/yaml/node.hpp>

namespace archfit::config {

// Maps node positions of one tree to positions in the file it came from.
struct Origin {
  std::string file;
  std::uint32_t column_shift = 0;  // added to every column (lines are file lines already)
  bool exact = true;               // false: every node is reported at `fallback`
  Location fallback;

  Location at(yaml::NodeRef node) const;
  Location at(std::uint32_t line, std::uint32_t column) const;
};

// Owns what reading one configuration document creates: the trees of values
// parsed in place and their origins. Fields point into it.
class ConfigDocument {
 public:
  explicit ConfigDocument(std::string file);
  const Origin* root_origin() const { return origins_.front().get(); }
  const std::string& file() const { return origins_.front()->file; }

  // Parses `text` (the value of `node`) as YAML; returns the root and the
  // origin that maps its positions into the file.
  std::pair<yaml::NodeRef, const Origin*> parse_in_place(std::string_view text, yaml::NodeRef node,
                                                         const Origin& outer,
                                                         const std::string& path);

 private:
  std::vector<std::unique_ptr<yaml::Tree>> trees_;
  std::vector<std::unique_ptr<Origin>> origins_;
};

class Field {
 public:
  struct Entry;

  Field(yaml::NodeRef node, const Origin* origin, ConfigDocument* doc, std::string path,
        bool flat = false);

  yaml::NodeRef node() const { return node_; }
  const std::string& path() const { return path_; }
  bool flat() const { return flat_; }
  Location where() const;
  // Throws Error(Config) "<path>: <problem>" at this value.
  [[noreturn]] void fail(const std::string& problem) const;
  // "a mapping", "a list", "the boolean yes", "the string \"16\"", "\"many\""
  std::string describe() const;

  // Absent in effect: `key:`, `key: ~`, `key: null`; an empty string when flat.
  bool is_null() const;
  bool is_mapping() const;
  bool is_list() const;

  bool as_bool() const;
  std::int64_t as_int(std::int64_t min, std::int64_t max) const;
  std::string as_string() const;
  // The index of the value in `options`; `noun` names what they are ("a mode").
  std::size_t as_enum(std::string_view noun, const std::vector<std::string_view>& options) const;
  std::chrono::seconds as_duration() const;
  // Platforms Go knows (is_known); unknown names get a did-you-mean.
  image::PlatformSet as_platforms() const;
  // An architecture name, normalized ("aarch64" -> "arm64") and known to Go.
  std::string as_architecture() const;
  std::vector<std::string> as_strings() const;

  // Items of a list, named <path>[i]. A flat field may be comma-separated text.
  std::vector<Field> items() const;
  // Entries of a mapping, values named <path>.<key> (the YAML parser has
  // refused keys given twice). A flat field is parsed as YAML first.
  std::vector<Entry> entries() const;
  // entries() of a mapping whose keys must be among `keys` (unknown ones are
  // errors with a did-you-mean).
  std::vector<Entry> entries(const std::vector<std::string_view>& keys) const;
  // A flat field's text parsed as YAML; any other field as it is.
  Field parsed() const;
  // The same value read as a ConfigMap string.
  Field as_flat() const;
  // The same value under another name in messages.
  Field renamed(std::string path) const;

 private:
  Field with(yaml::NodeRef node, std::string path) const;
  std::string_view text() const;  // scalar text (flat: the string, or one item of it)
  bool explicitly_string() const;
  bool is_bool_word() const;

  yaml::NodeRef node_;
  const Origin* origin_ = nullptr;
  ConfigDocument* doc_ = nullptr;
  std::string path_;
  bool flat_ = false;
  // A flat list's item: a piece of the node's text at this column offset.
  bool has_piece_ = false;
  std::string_view piece_;
  std::uint32_t piece_column_ = 0;
};

struct Field::Entry {
  std::string key;
  Field key_field;  // the key node, named like the value
  Field value;
};

// A key of `keys` at this level is misspelt or unknown: throws at the key.
[[noreturn]] void unknown_key(const Field& key, const std::vector<std::string_view>& keys);

// YAML 1.1's words for booleans (true, yes, on...), for text that comes
// without a node (ARCHFIT_OFFLINE).
std::optional<bool> bool_word(std::string_view text);

}  // namespace archfit::config
