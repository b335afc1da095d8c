// JSON read into a small tree that remembers where each value starts, so that
// errors in hand-edited files (the lock file) can name a line and column.
// RapidJSON's DOM keeps no positions; its SAX reader does, through the stream.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <archfit/base/error.hpp>

namespace archfit::cache {

struct JsonValue {
  enum class Type : std::uint8_t { Null, Bool, Number, String, Array, Object };

  Type type = Type::Null;
  std::size_t offset = 0;  // byte offset of the value's first character
  bool boolean = false;
  bool is_integer = false;  // a number written without fraction or exponent that fits int64
  std::int64_t integer = 0;
  double number = 0;
  std::string string;
  std::vector<JsonValue> items;
  struct Member;
  std::vector<Member> members;  // in document order

  // A word for messages: "a string", "an object"...
  std::string_view type_name() const;
};

struct JsonValue::Member {
  std::string key;
  std::size_t key_offset = 0;
  JsonValue value;
};

// The members of the object under one key of the root object, handed over
// one at a time as each is complete instead of kept in the tree: a lock file
// of many images is never held as a tree. The key then holds an empty object.
struct StreamedMembers {
  std::string_view key;
  std::function<void(const JsonValue::Member&)> each;
};

// Parses `text`. Throws Error(ErrorKind::Config) located in `name` for invalid
// JSON (RapidJSON's message) and for nesting deeper than `max_depth`.
JsonValue parse_located_json(std::string_view text, const std::string& name,
                             std::size_t max_depth = 64, const StreamedMembers* streamed = nullptr);

// 1-based line and column (in characters) of a byte offset.
Location locate(std::string_view text, std::size_t offset, const std::string& name);

}  // namespace archfit::cache
