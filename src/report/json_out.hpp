// What the JSON formats (json, sarif) share: a RapidJSON writer straight onto
// the report's stream, and the member shapes they write over and over.
#pragma once

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string_view>

#include <rapidjson/writer.h>

namespace archfit::report::detail {

// RapidJSON's output stream over a std::ostream, a buffer at a time
// (rapidjson::OStreamWrapper calls ostream::put for every character, which
// costs more than the rest of writing a large report). Write nothing to the
// ostream itself while this holds characters: Flush() first.
class BufferedStream {
 public:
  using Ch = char;

  explicit BufferedStream(std::ostream& out) : out_(out) {}
  BufferedStream(const BufferedStream&) = delete;
  BufferedStream& operator=(const BufferedStream&) = delete;

  void Put(char c) {
    if (used_ == sizeof buffer_) Flush();
    buffer_[used_++] = c;
  }
  void Flush() {
    out_.write(buffer_, static_cast<std::streamsize>(used_));
    used_ = 0;
  }

 private:
  std::ostream& out_;
  std::size_t used_ = 0;
  char buffer_[16384];
};

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
