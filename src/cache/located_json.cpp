#include "cache/located_json.hpp"

#include <rapidjson/error/en.h>
#include <rapidjson/reader.h>

namespace archfit::cache {

std::string_view JsonValue::type_name() const {
  switch (type) {
    case Type::Null:
      return "null";
    case Type::Bool:
      return "a boolean";
    case Type::Number:
      return "a number";
    case Type::String:
      return "a string";
    case Type::Array:
      return "an array";
    case Type::Object:
      return "an object";
  }
  return "a value";
}

Location locate(std::string_view text, std::size_t offset, const std::string& name) {
  Location where{name, 1, 1};
  if (offset > text.size()) offset = text.size();
  for (std::size_t i = 0; i < offset; ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '\n') {
      ++where.line;
      where.column = 1;
    } else if ((c & 0xC0) != 0x80) {  // count characters, not UTF-8 continuation bytes
      ++where.column;
    }
  }
  return where;
}

namespace {

// An input stream over the text that reads NUL at its end and never past it:
// RapidJSON takes the rest of a UTF-8 sequence without looking, so a text
// that ends inside one must not let it run on. RapidJSON's own StringStream
// has no end, and is copied into a local while a string or number is read
// (StreamTraits::copyOptimization), so its Tell() inside a handler lags
// behind; this one has neither problem.
struct OffsetStream {
  using Ch = char;
  explicit OffsetStream(std::string_view text)
      : begin(text.data()), cursor(text.data()), end(text.data() + text.size()) {}
  Ch Peek() const { return cursor < end ? *cursor : '\0'; }
  Ch Take() { return cursor < end ? *cursor++ : '\0'; }
  std::size_t Tell() const { return static_cast<std::size_t>(cursor - begin); }
  // Writing is for in-situ parsing, which is not used.
  Ch* PutBegin() { return nullptr; }
  void Put(Ch) {}
  void Flush() {}
  std::size_t PutEnd(Ch*) { return 0; }

  const char* begin;
  const char* cursor;
  const char* end;
};

// Builds the tree from SAX events. RapidJSON reports an event after reading
// its token, so the token starts at the first byte after the previous event
// that is not a blank or a separator.
class Builder : public rapidjson::BaseReaderHandler<rapidjson::UTF8<>, Builder> {
 public:
  Builder(std::string_view text, const OffsetStream& stream, std::size_t max_depth,
          const StreamedMembers* streamed)
      : text_(text), stream_(stream), max_depth_(max_depth), streamed_(streamed) {}

  bool Null() { return add(JsonValue{}); }
  bool Bool(bool b) {
    JsonValue v;
    v.type = JsonValue::Type::Bool;
    v.boolean = b;
    return add(std::move(v));
  }
  bool Int(int i) { return Int64(i); }
  bool Uint(unsigned u) { return Int64(u); }
  bool Int64(std::int64_t i) {
    JsonValue v;
    v.type = JsonValue::Type::Number;
    v.is_integer = true;
    v.integer = i;
    v.number = static_cast<double>(i);
    return add(std::move(v));
  }
  bool Uint64(std::uint64_t u) { return Double(static_cast<double>(u)); }
  bool Double(double d) {
    JsonValue v;
    v.type = JsonValue::Type::Number;
    v.number = d;
    return add(std::move(v));
  }
  bool String(const char* s, rapidjson::SizeType length, bool) {
    JsonValue v;
    v.type = JsonValue::Type::String;
    v.string.assign(s, length);
    return add(std::move(v));
  }
  bool StartObject() { return open(JsonValue::Type::Object); }
  bool Key(const char* s, rapidjson::SizeType length, bool) {
    pending_key_.assign(s, length);
    pending_key_offset_ = token_start();
    mark();
    return true;
  }
  bool EndObject(rapidjson::SizeType) { return close(); }
  bool StartArray() { return open(JsonValue::Type::Array); }
  bool EndArray(rapidjson::SizeType) { return close(); }

  JsonValue& root() { return root_; }
  bool too_deep() const { return too_deep_; }
  std::size_t too_deep_offset() const { return too_deep_offset_; }

 private:
  std::size_t token_start() const {
    std::size_t i = last_end_;
    while (i < text_.size() && between_tokens(text_[i]))
      ++i;
    return i;
  }
  void mark() { last_end_ = stream_.Tell(); }

  // Whether the reader has consumed a bracket when it reports it differs
  // between its parsing modes; a closing bracket never starts a value, and
  // open() moves past an opening one itself.
  static bool between_tokens(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || c == ':' || c == '}' ||
           c == ']';
  }

  // Places v in its parent and returns where it now lives.
  JsonValue* place(JsonValue v) {
    v.offset = token_start();
    mark();
    if (open_.empty()) {
      root_ = std::move(v);
      return &root_;
    }
    JsonValue* parent = open_.back();
    if (parent->type == JsonValue::Type::Array) {
      parent->items.push_back(std::move(v));
      return &parent->items.back();
    }
    parent->members.push_back(
        JsonValue::Member{std::move(pending_key_), pending_key_offset_, std::move(v)});
    return &parent->members.back().value;
  }
  bool add(JsonValue v) {
    place(std::move(v));
    hand_over();
    return true;
  }
  bool open(JsonValue::Type type) {
    if (open_.size() >= max_depth_) {
      too_deep_ = true;
      too_deep_offset_ = token_start();
      return false;
    }
    JsonValue v;
    v.type = type;
    // Ancestors' child vectors do not grow while a child is open, so the
    // pointers kept here stay valid.
    bool streams = streamed_ != nullptr && type == JsonValue::Type::Object && open_.size() == 1 &&
                   open_[0]->type == JsonValue::Type::Object && pending_key_ == streamed_->key;
    JsonValue* placed = place(std::move(v));
    last_end_ = placed->offset + 1;
    open_.push_back(placed);
    if (streams) streaming_ = placed;
    return true;
  }
  bool close() {
    if (open_.back() == streaming_) streaming_ = nullptr;
    open_.pop_back();
    mark();
    hand_over();
    return true;
  }
  // A member of the streamed object is complete: hand it over and drop it.
  void hand_over() {
    if (streaming_ == nullptr || open_.empty() || open_.back() != streaming_) return;
    streamed_->each(streaming_->members.back());
    streaming_->members.pop_back();
  }

  std::string_view text_;
  const OffsetStream& stream_;
  std::size_t max_depth_;
  const StreamedMembers* streamed_;
  JsonValue* streaming_ = nullptr;  // the object whose members are handed over
  std::size_t last_end_ = 0;
  JsonValue root_;
  std::vector<JsonValue*> open_;
  std::string pending_key_;
  std::size_t pending_key_offset_ = 0;
  bool too_deep_ = false;
  std::size_t too_deep_offset_ = 0;
};

// RapidJSON's messages are sentences ("Invalid value."); ours continue a line.
std::string json_message(rapidjson::ParseErrorCode code) {
  std::string message = rapidjson::GetParseError_En(code);
  if (!message.empty() && message.back() == '.') message.pop_back();
  if (!message.empty() && message[0] >= 'A' && message[0] <= 'Z') message[0] += 'a' - 'A';
  return message;
}

}  // namespace

JsonValue parse_located_json(std::string_view text, const std::string& name, std::size_t max_depth,
                             const StreamedMembers* streamed) {
  // A NUL byte in the text reads as its end: trailing garbage there.
  std::string_view input = text;
  OffsetStream stream(input);
  Builder builder(input, stream, max_depth, streamed);
  rapidjson::Reader reader;
  constexpr unsigned kFlags =
      rapidjson::kParseIterativeFlag | rapidjson::kParseValidateEncodingFlag;
  rapidjson::ParseResult ok = reader.Parse<kFlags>(stream, builder);
  if (builder.too_deep()) {
    fail(ErrorKind::Config,
         "cannot parse JSON: nested more than " + std::to_string(max_depth) + " levels deep",
         locate(input, builder.too_deep_offset(), name));
  }
  if (!ok) {
    fail(ErrorKind::Config, "cannot parse JSON: " + json_message(ok.Code()),
         locate(input, ok.Offset(), name));
  }
  return std::move(builder.root());
}

}  // namespace archfit::cache
