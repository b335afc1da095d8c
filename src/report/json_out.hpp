// What the JSON formats (json, sarif) share: a RapidJSON writer straight onto
// the report's stream, and the member shapes they write over and over.
#pragma once

#include <cstdint>
#include <ostream>
#include <string_view>

#include <rapidjson/ostreamwrapper.h>
#include <rapidjson/writer.h>

namespace archfit::report::detail {

class JsonOut {
 public:
  using Writer = rapidjson::Writer<rapidjson::OStreamWrapper>;

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
  rapidjson::OStreamWrapper stream_;
  Writer writer_;
};

}  // namespace archfit::report::detail
