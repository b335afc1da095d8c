#include "support/json.hpp"

#include <rapidjson/document.h>
#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>

#include <stdexcept>

namespace archfit::testing {

namespace {
rapidjson::Document parse(std::string_view json) {
  rapidjson::Document doc;
  doc.Parse(json.data(), json.size());
  if (doc.HasParseError()) throw std::runtime_error("invalid JSON: " + std::string(json.substr(0, 200)));
  return doc;
}
}  // namespace

std::string pretty_json(std::string_view json) {
  rapidjson::Document doc = parse(json);
  rapidjson::StringBuffer buffer;
  rapidjson::PrettyWriter<rapidjson::StringBuffer> writer(buffer);
  writer.SetIndent(' ', 2);
  doc.Accept(writer);
  return std::string(buffer.GetString()) + "\n";
}

bool same_json(std::string_view a, std::string_view b) { return parse(a) == parse(b); }

}  // namespace archfit::testing
