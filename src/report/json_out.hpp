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

namespace archfit::report::detail {

// RapidJSON's output stream over a std::ostream, a buffer at a time
// (rapidjson::OStreamWrapper calls ostream::put for every character, which
// costs more than the rest of writing a large report). The writer reserves
// room before it writes a value (PutReserve below), so characters go in
// without a check each, and the unescaped runs of a string are copied whole
// (the Writer specialisation after this class). Write nothing to the ostream
// itself while this holds characters: Flush() first.
class BufferedStream {
 public:
  using Ch = char;

  explicit BufferedStream(std::ostream& out) : out_(out), buffer_(kSize) {}
  BufferedStream(const BufferedStream&) = delete;
  BufferedStream& operator=(const BufferedStream&) = delete;

  void Put(char c) {
    if (used_ == buffer_.size()) Flush();
    buffer_[used_++] = c;
  }
  // Room for `count` characters, written next with PutUnsafe or Append. A
  // value longer than the buffer (a string reserves 6 characters for each of
  // its own, for escapes) grows it.
  void Reserve(std::size_t count) {
    if (buffer_.size() - used_ >= count) return;
    Flush();
    if (count > buffer_.size()) buffer_.resize(count);
  }
  void PutUnsafe(char c) { buffer_[used_++] = c; }
  void Append(const char* data, std::size_t size) {
    std::memcpy(buffer_.data() + used_, data, size);
    used_ += size;
  }
  // Characters that need no room reserved: a run longer than the buffer goes
  // straight to the ostream instead of growing it.
  void Write(const char* data, std::size_t size) {
    if (buffer_.size() - used_ < size) {
      Flush();
      if (size > buffer_.size()) {
        out_.write(data, static_cast<std::streamsize>(size));
        return;
      }
    }
    Append(data, size);
  }
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
// A string's characters that need no escape (not '"', '\\' or a control
// character) copied as one run; RapidJSON's writer escapes the rest. Bytes of
// 0x80 and above go through unchanged, as its UTF-8 to UTF-8 writer copies
// them. WriteString has reserved room for the whole string.
template <>
inline bool Writer<archfit::report::detail::BufferedStream>::ScanWriteUnescapedString(
    StringStream& is, size_t length) {
  const char* begin = is.src_;
  const char* end = is.head_ + length;
  const char* p = begin;
  // Eight bytes at a time while none of them needs an escape (each test
  // below is exact about whether some byte of the word is such a byte); then
  // byte by byte up to the one that does.
  constexpr std::uint64_t kOnes = 0x0101010101010101u;
  constexpr std::uint64_t kHighs = 0x8080808080808080u;
  while (end - p >= 8) {
    std::uint64_t w;
    std::memcpy(&w, p, sizeof w);
    const std::uint64_t quote = w ^ (kOnes * '"');
    const std::uint64_t slash = w ^ (kOnes * '\\');
    // The high bit of some byte is set when a byte is below 0x20 (the ~w
    // keeps bytes of 0x80 and above out) or is '"' or '\\' (a zero byte
    // of the xor'd word).
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
  os_->Append(begin, static_cast<std::size_t>(p - begin));
  is.src_ = p;
  return p != end;
}

// A value already in JSON (the reports' current and proposed fields, which
// are the input's and may be large) copied whole, without growing the
// buffer; RapidJSON's writer puts it a character at a time.
template <>
inline bool Writer<archfit::report::detail::BufferedStream>::WriteRawValue(const Ch* json,
                                                                           size_t length) {
  os_->Write(json, length);
  return true;
}
RAPIDJSON_NAMESPACE_END

namespace archfit::report::detail {

class JsonOut {
 public:
  using Writer = rapidjson::Writer<BufferedStream>;

  explicit JsonOut(std::ostream& out) : stream_(out), writer_(stream_) {}
  JsonOut(const JsonOut&) = delete;
  JsonOut& operator=(const JsonOut&) = delete;

  Writer& w() { return writer_; }

  void string(std::string_view value) {
    writer_.String(value.data(), static_cast<rapidjson::SizeType>(value.size()));
  }
  // "key": "value"
  void string(const char* key, std::string_view value) {
    writer_.Key(key);
    string(value);
  }
  // "key": n
  void number(const char* key, std::uint64_t value) {
    writer_.Key(key);
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
