// json: {"findings": [...], "summary": {...}}, every finding, written with
// RapidJSON as findings come.
#include <rapidjson/ostreamwrapper.h>
#include <rapidjson/writer.h>

#include "report/writers.hpp"

namespace archfit::report::detail {

namespace {

using placement::Finding;

class JsonWriter : public Writer {
 public:
  JsonWriter(std::ostream& out, const WriterOptions& options)
      : options_(options), stream_(out), w_(stream_) {
    w_.StartObject();
    w_.Key("findings");
    w_.StartArray();
  }

  void add(const Finding& f) override {
    w_.StartObject();
    string("rule", f.rule);
    string("severity", placement::severity_name(f.severity));
    string("message", f.message);
    string("file", f.file);
    w_.Key("line");
    w_.Uint(f.line);
    w_.Key("column");
    w_.Uint(f.column);
    w_.Key("document");
    w_.Uint(f.document);
    w_.Key("resource");
    w_.StartObject();
    string("apiVersion", f.resource.api_version);
    string("kind", f.resource.kind);
    string("namespace", f.resource.namespace_name);
    string("name", f.resource.name);
    w_.EndObject();
    w_.Key("field");
    w_.StartObject();
    string("path", f.field_path);
    raw_or_null("current", f.current);
    raw_or_null("proposed", f.proposed);
    w_.EndObject();
    w_.Key("fixable");
    w_.Bool(f.fixable);
    w_.Key("source");
    if (f.source.empty()) {
      w_.Null();
    } else {
      string("source", source_path(f, options_), false);
    }
    w_.EndObject();
  }

  void finish(const Summary& summary) override {
    w_.EndArray();
    w_.Key("summary");
    w_.StartObject();
    w_.Key("files");
    w_.Uint64(summary.files);
    w_.Key("workloads");
    w_.Uint64(summary.workloads);
    w_.Key("templates");
    w_.Uint64(summary.templates);
    w_.Key("errors");
    w_.Uint64(summary.counts.errors);
    w_.Key("warnings");
    w_.Uint64(summary.counts.warnings);
    w_.Key("infos");
    w_.Uint64(summary.counts.infos);
    w_.EndObject();
    w_.EndObject();
    stream_.Flush();
    stream_.Put('\n');
    stream_.Flush();
  }

 private:
  void string(const char* key, std::string_view value, bool with_key = true) {
    if (with_key) w_.Key(key);
    w_.String(value.data(), static_cast<rapidjson::SizeType>(value.size()));
  }
  void raw_or_null(const char* key, const std::string& json) {
    w_.Key(key);
    if (json.empty()) {
      w_.Null();
    } else {
      w_.RawValue(json.c_str(), json.size(), rapidjson::kObjectType);
    }
  }

  WriterOptions options_;
  rapidjson::OStreamWrapper stream_;
  rapidjson::Writer<rapidjson::OStreamWrapper> w_;
};

}  // namespace

std::unique_ptr<Writer> json_writer(std::ostream& out, const WriterOptions& options) {
  return std::make_unique<JsonWriter>(out, options);
}

}  // namespace archfit::report::detail
