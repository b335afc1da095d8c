// What the JSON formats (json, sarif) share: a RapidJSON writer straight onto
// the report's stream, and the member shapes they write over and over.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <ostream>
#include <string_view>
#include <vector>

#include <rapidjson/writer.h>

#include <archfit/base/untrusted.hpp>

#include "report/sinks.hpp"
namespace archfit::report::detail {

// RapidJSON's output stream over a std::ostream, a buffer at a time
// (rapidjson::OStreamWrapper calls ostream::put for every character, which
// costs more than the rest of writing a large report). Numbers and literals
// go in after one check for room (PutReserve below); strings and raw JSON
// are written by the Writer specialisations after this class, whole runs at a
// time, and never grow the buffer: a value longer than it, however large the
// input made it, goes past it to the ostream. Write nothing to the ostream
// itself while this holds characters: Flush() first.
class BufferedStream {
 public:
  using Ch = char;

  explicit BufferedStream(std::ostream& out) : out_(out), buffer_(kSize) {}
  BufferedStream(const BufferedStream&) = delete;
  BufferedStream& operator=(const BufferedStream&) = delete;

  void Put(char c) {
    if (used_ == kSize) Flush();
    buffer_[used_++] = c;
  }
  // Room for `count` characters (RapidJSON asks for at most a number's 25),
  // written next with PutUnsafe.
  void Reserve(std::size_t count) {
    if (kSize - used_ < count) Flush();
  }
  void PutUnsafe(char c) { buffer_[used_++] = c; }
  // A string known to need no escape, in quotes.
  void Quoted(std::string_view plain) {
    Put('"');
    Write(plain.data(), plain.size());
    Put('"');
  }
  void Write(const char* data, std::size_t size) {
    if (kSize - used_ < size) {
      Flush();
      if (size > kSize) {
        out_.write(data, static_cast<std::streamsize>(size));
        return;
      }
    }
    std::memcpy(buffer_.data() + used_, data, size);
    used_ += size;
  }
  // A JSON string: quotes, and the escapes RapidJSON's writer makes (a
  // backslash before '"' and itself; b, f, n, r, t; u00XX for the other
  // control characters); bytes of 0x80 and above as they are, as its UTF-8
  // to UTF-8 writer copies them.
  void String(const char* data, std::size_t size);
  void Flush() {
    out_.write(buffer_.data(), static_cast<std::streamsize>(used_));
    used_ = 0;
  }

 private:
  static constexpr std::size_t kSize = 64 * 1024;

  std::ostream& out_;
  std::size_t used_ = 0;
  std::vector<char> buffer_;
};

// Where the run of characters that need no escape, from `p` on, ends: eight
// bytes at a time while none of them is a control character, '"' or '\\'
// (each test below is exact about whether some byte of the word is one),
// then byte by byte.
inline const char* unescaped_end(const char* p, const char* end) {
  constexpr std::uint64_t kOnes = 0x0101010101010101u;
  constexpr std::uint64_t kHighs = 0x8080808080808080u;
  while (end - p >= 8) {
    std::uint64_t w;
    std::memcpy(&w, p, sizeof w);
    const std::uint64_t quote = w ^ (kOnes * '"');
    const std::uint64_t slash = w ^ (kOnes * '\\');
    // The high bit of some byte is set when a byte is below 0x20 (the ~w
    // keeps bytes of 0x80 and above out) or is '"' or '\\' (a zero byte of
    // the xor'd word).
    const std::uint64_t stop =
        ((w - kOnes * 0x20) & ~w) | ((quote - kOnes) & ~quote) | ((slash - kOnes) & ~slash);
    if ((stop & kHighs) != 0) break;
    p += 8;
  }
  while (p != end) {
    auto c = static_cast<unsigned char>(*p);
    if (c < 0x20 || c == '"' || c == '\\') break;
    ++p;
  }
  return p;
}

inline void BufferedStream::String(const char* data, std::size_t size) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  const char* p = data;
  const char* end = data + size;
  Put('"');
  while (p != end) {
    const char* run = p;
    p = unescaped_end(p, end);
    Write(run, static_cast<std::size_t>(p - run));
    if (p == end) break;
    const auto c = static_cast<unsigned char>(*p++);
    char escape[6] = {'\\', 0, 0, 0, 0, 0};
    std::size_t length = 2;
    switch (c) {
      case '"':
      case '\\':
        escape[1] = static_cast<char>(c);
        break;
      case '\b':
        escape[1] = 'b';
        break;
      case '\f':
        escape[1] = 'f';
        break;
      case '\n':
        escape[1] = 'n';
        break;
      case '\r':
        escape[1] = 'r';
        break;
      case '\t':
        escape[1] = 't';
        break;
      default:
        escape[1] = 'u';
        escape[2] = '0';
        escape[3] = '0';
        escape[4] = kHex[c >> 4];
        escape[5] = kHex[c & 0xf];
        length = 6;
    }
    Write(escape, length);
  }
  Put('"');
}

// Found by argument-dependent lookup from RapidJSON's writer, in place of its
// generic versions (which call Put for every character).
inline void PutReserve(BufferedStream& stream, std::size_t count) {
  stream.Reserve(count);
}
inline void PutUnsafe(BufferedStream& stream, char c) {
  stream.PutUnsafe(c);
}

}  // namespace archfit::report::detail

RAPIDJSON_NAMESPACE_BEGIN
// Strings (values and keys) through the stream's own writer above: RapidJSON's
// reserves six characters for each of a string's, which would grow the buffer
// to six times the longest string.
template <>
inline bool Writer<archfit::report::detail::BufferedStream>::WriteString(const Ch* str,
                                                                         SizeType length) {
  os_->String(str, length);
  return true;
}

// A value already in JSON (the reports' current and proposed fields, which
// are the input's and may be large) copied whole; RapidJSON's writer puts it
// a character at a time.
template <>
inline bool Writer<archfit::report::detail::BufferedStream>::WriteRawValue(const Ch* json,
                                                                           size_t length) {
  os_->Write(json, length);
  return true;
}
RAPIDJSON_NAMESPACE_END

namespace archfit::report::detail {

// A member name of the report's own: a literal, checked as it is compiled to
// need no escape, and so written as it is (measuring each name and scanning it
// for escapes took two fifths of the JSON report's writing).
class PlainKey {
 public:
  consteval PlainKey(const char* text) : text_(text) {
    for (char c : text_) {
      if (static_cast<unsigned char>(c) < 0x20 || c == '"' || c == '\\') {
        throw "a report's member name needs no escape";
      }
    }
  }
  std::string_view text() const { return text_; }

 private:
  std::string_view text_;
};

// RapidJSON's writer, with member names of the report's own written as they
// are: the separator RapidJSON's Key writes first (its Prefix, which a
// derived class may call), then the quoted name. Its string values are
// archfit's words or text from input, made valid UTF-8 (for_json): nothing
// else can be written as a string.
class ReportJsonWriter : private rapidjson::Writer<BufferedStream> {
  using Base = rapidjson::Writer<BufferedStream>;

 public:
  explicit ReportJsonWriter(BufferedStream& stream) : Base(stream) {}

  using Base::Bool;
  using Base::EndArray;
  using Base::EndObject;
  using Base::Int64;
  using Base::Null;
  using Base::StartArray;
  using Base::StartObject;
  using Base::Uint64;

  void key(PlainKey name) {
    Prefix(rapidjson::kStringType);
    os_->Quoted(name.text());
  }
  void string(Words words) {
    Base::String(words.text().data(), static_cast<rapidjson::SizeType>(words.text().size()));
  }
  void string(Untrusted text) {
    std::string_view raw = text.raw();
    if (is_utf8(raw)) {
      Base::String(raw.data(), static_cast<rapidjson::SizeType>(raw.size()));
      return;
    }
    std::string valid = for_json(text);
    Base::String(valid.data(), static_cast<rapidjson::SizeType>(valid.size()));
  }
  // A value archfit made as JSON from the input's data (yaml::to_json of a
  // parsed document, which is UTF-8), copied whole.
  void json(std::string_view value, rapidjson::Type type) {
    Base::RawValue(value.data(), value.size(), type);
  }
};

class JsonOut {
 public:
  using Writer = ReportJsonWriter;

  explicit JsonOut(std::ostream& out) : stream_(out), writer_(stream_) {}
  JsonOut(const JsonOut&) = delete;
  JsonOut& operator=(const JsonOut&) = delete;

  Writer& w() { return writer_; }

  // "key": "value"
  void string(PlainKey key, Untrusted value) {
    writer_.key(key);
    writer_.string(value);
  }
  void string(PlainKey key, Words value) {
    writer_.key(key);
    writer_.string(value);
  }
  // "key": n
  void number(PlainKey key, std::uint64_t value) {
    writer_.key(key);
    writer_.Uint64(value);
  }
  // The document is complete: a final line break, and everything written out.
  void end_document() {
    stream_.Put('\n');
    stream_.Flush();
  }

 private:
  BufferedStream stream_;
  Writer writer_;
};

}  // namespace archfit::report::detail
