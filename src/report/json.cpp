// json: {"findings": [...], "summary": {...}}, every finding, written with
// RapidJSON as findings come.

#include "report/json_out.hpp"
#include "report/writers.hpp"

namespace archfit::report::detail {

namespace {

using findings::Finding;

class JsonWriter : public Writer {
 public:
  JsonWriter(std::ostream& out, const WriterOptions& options)
      : options_(options), out_(out), w_(out_.w()) {
    w_.StartObject();
    w_.key("findings");
    w_.StartArray();
  }

  void add(const findings::Finding& f) override {
    w_.StartObject();
    out_.string("rule", Words::rule(f.rule));
    out_.string("severity", Words::severity(f.severity));
    out_.string("message", Untrusted(f.message));
    out_.string("file", Untrusted(f.file));
    out_.number("line", f.line);
    out_.number("column", f.column);
    out_.number("document", f.document);
    w_.key("resource");
    w_.StartObject();
    out_.string("apiVersion", Untrusted(f.resource.api_version));
    out_.string("kind", Untrusted(f.resource.kind));
    out_.string("namespace", Untrusted(f.resource.namespace_name));
    out_.string("name", Untrusted(f.resource.name));
    w_.EndObject();
    w_.key("field");
    w_.StartObject();
    out_.string("path", Untrusted(yaml::field_text(f.field_path)));
    raw_or_null("current", f.current);
    raw_or_null("proposed", f.proposed);
    w_.EndObject();
    w_.key("fixable");
    w_.Bool(f.fixable);
    if (std::string source = source_path(f, options_); source.empty()) {
      w_.key("source");
      w_.Null();
    } else {
      out_.string("source", Untrusted(source));
    }
    w_.EndObject();
  }

  void finish(const Summary& summary) override {
    w_.EndArray();
    w_.key("summary");
    w_.StartObject();
    out_.number("files", summary.files);
    out_.number("workloads", summary.workloads);
    out_.number("templates", summary.templates);
    out_.number("errors", summary.counts.errors);
    out_.number("warnings", summary.counts.warnings);
    out_.number("infos", summary.counts.infos);
    w_.EndObject();
    w_.EndObject();
    out_.end_document();
  }

 private:
  void raw_or_null(PlainKey key, const std::string& json) {
    w_.key(key);
    if (json.empty()) {
      w_.Null();
    } else {
      w_.json(json, rapidjson::kObjectType);
    }
  }

  WriterOptions options_;
  JsonOut out_;
  JsonOut::Writer& w_;
};

}  // namespace

std::unique_ptr<Writer> json_writer(std::ostream& out, const WriterOptions& options) {
  return std::make_unique<JsonWriter>(out, options);
}

}  // namespace archfit::report::detail
