// Values as JSON: every JSON archfit writes goes through RapidJSON's writer.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <archfit/yaml/value.hpp>

namespace archfit::yaml {
namespace {

using Writer = rapidjson::Writer<rapidjson::StringBuffer>;

void write_string(Writer& w, const std::string& s) {
  w.String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
}

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
      std::vector<const Value::Entry*> entries;
      entries.reserve(v.entries().size());
      for (const Value::Entry& e : v.entries())
        entries.push_back(&e);
      if (order == KeyOrder::Sorted) {
        std::sort(entries.begin(), entries.end(),
                  [](const Value::Entry* a, const Value::Entry* b) { return a->first < b->first; });
      }
      w.StartObject();
      for (const Value::Entry* e : entries) {
        write_string(w, e->first);
        write(w, e->second, order);
      }
      w.EndObject();
      return;
    }
  }
}

}  // namespace

std::string to_json(const Value& value, KeyOrder order) {
  rapidjson::StringBuffer buffer;
  Writer writer(buffer);
  write(writer, value, order);
  return std::string(buffer.GetString(), buffer.GetSize());
}

}  // namespace archfit::yaml
