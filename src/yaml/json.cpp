// Values as JSON: every JSON archfit writes goes through RapidJSON's writer.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <span>
#include <vector>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <archfit/yaml/value.hpp>

namespace archfit::yaml {
namespace {

// FNV-1a of what is written, without keeping it.
class Fnv1aStream {
 public:
  using Ch = char;
  void Put(char c) {
    hash_ ^= static_cast<unsigned char>(c);
    hash_ *= 1099511628211ull;
  }
  void Flush() {}
  std::uint64_t hash() const { return hash_; }

 private:
  std::uint64_t hash_ = 1469598103934665603ull;
};

template <typename Writer>
void write_string(Writer& w, const std::string& s) {
  w.String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
}

template <typename Writer>
void write(Writer& w, const Value& v, KeyOrder order) {
  switch (v.type()) {
    case Value::Type::Null:
      w.Null();
      return;
    case Value::Type::Bool:
      w.Bool(v.as_bool());
      return;
    case Value::Type::Int:
      w.Int64(v.as_int());
      return;
    case Value::Type::Float: {
      // JSON has no NaN or infinity (YAML's .nan, .inf): they write null.
      // Finite values keep every digit ("%.17g"), as Kubernetes' reader
      // rounds them back to the same double.
      double d = v.as_float();
      if (!std::isfinite(d)) {
        w.Null();
        return;
      }
      char text[32];
      int n = std::snprintf(text, sizeof text, "%.17g", d);
      w.RawValue(text, static_cast<std::size_t>(n), rapidjson::kNumberType);
      return;
    }
    case Value::Type::String:
      write_string(w, v.as_string());
      return;
    case Value::Type::Sequence:
      w.StartArray();
      for (const Value& item : v.items())
        write(w, item, order);
      w.EndArray();
      return;
    case Value::Type::Mapping: {
      w.StartObject();
      if (order == KeyOrder::AsWritten) {
        for (const Value::Entry& e : v.entries()) {
          write_string(w, e.first);
          write(w, e.second, order);
        }
      } else {
        // By key; a few entries (most mappings) sorted in place on the stack.
        constexpr std::size_t kFew = 16;
        std::array<const Value::Entry*, kFew> few{};
        std::vector<const Value::Entry*> many;
        std::span<const Value::Entry*> entries;
        if (v.entries().size() <= kFew) {
          entries = std::span<const Value::Entry*>(few.data(), v.entries().size());
        } else {
          many.resize(v.entries().size());
          entries = many;
        }
        for (std::size_t i = 0; i < entries.size(); ++i)
          entries[i] = &v.entries()[i];
        std::sort(entries.begin(), entries.end(),
                  [](const Value::Entry* a, const Value::Entry* b) { return a->first < b->first; });
        for (const Value::Entry* e : entries) {
          write_string(w, e->first);
          write(w, e->second, order);
        }
      }
      w.EndObject();
      return;
    }
  }
}

}  // namespace

std::string to_json(const Value& value, KeyOrder order) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  write(writer, value, order);
  return std::string(buffer.GetString(), buffer.GetSize());
}

std::uint64_t json_fnv1a(const Value& value, KeyOrder order) {
  Fnv1aStream stream;
  rapidjson::Writer<Fnv1aStream> writer(stream);
  write(writer, value, order);
  return stream.hash();
}

}  // namespace archfit::yaml
