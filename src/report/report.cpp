#include <algorithm>
#include <string>
#include <tuple>

#include <rapidjson/ostreamwrapper.h>
#include <rapidjson/writer.h>

#include <archfit/base/error.hpp>
#include <archfit/report/report.hpp>

namespace archfit::report {

using placement::Finding;
using placement::Severity;

Format parse_format(std::string_view name) {
  if (name == "text") return Format::Text;
  if (name == "json") return Format::Json;
  fail(ErrorKind::Usage, "unknown format \"" + std::string(name) + "\"; use text or json");
}

void Counts::add(Severity s) {
  switch (s) {
    case Severity::Error:
      ++errors;
      break;
    case Severity::Warning:
      ++warnings;
      break;
    case Severity::Info:
      ++infos;
      break;
  }
}

std::size_t Counts::at_least(Severity s) const {
  switch (s) {
    case Severity::Error:
      return errors;
    case Severity::Warning:
      return errors + warnings;
    case Severity::Info:
      return errors + warnings + infos;
  }
  return 0;
}

void sort_findings(std::vector<Finding>& findings) {
  std::stable_sort(findings.begin(), findings.end(), [](const Finding& a, const Finding& b) {
    return std::tie(a.file, a.document, a.line, a.column, a.rule) <
           std::tie(b.file, b.document, b.line, b.column, b.rule);
  });
}

namespace {

std::string plural(std::size_t n, const char* word) {
  std::string out = std::to_string(n) + " " + word;
  if (n != 1) out += 's';
  return out;
}

class TextWriter : public Writer {
 public:
  TextWriter(std::ostream& out, Severity shown) : out_(out), shown_(shown) {}

  void add(const Finding& f) override {
    if (f.severity < shown_) return;
    out_ << f.file;
    if (f.line > 0) out_ << ':' << f.line << ':' << f.column;
    out_ << ": " << placement::severity_name(f.severity) << ' ' << f.rule << ": " << f.message
         << '\n';
  }

  void finish(const Summary& summary) override {
    const Counts& c = summary.counts;
    out_ << plural(c.errors, "error") << ", " << plural(c.warnings, "warning") << ", "
         << plural(c.infos, "info") << " in " << plural(summary.files, "file") << " ("
         << plural(summary.workloads, "workload") << ")\n";
  }

 private:
  std::ostream& out_;
  Severity shown_;
};

class JsonWriter : public Writer {
 public:
  explicit JsonWriter(std::ostream& out) : stream_(out), w_(stream_) {
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
  void string(const char* key, std::string_view value) {
    w_.Key(key);
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

  rapidjson::OStreamWrapper stream_;
  rapidjson::Writer<rapidjson::OStreamWrapper> w_;
};

}  // namespace

std::unique_ptr<Writer> make_writer(Format format, std::ostream& out, Severity shown) {
  if (format == Format::Json) return std::make_unique<JsonWriter>(out);
  return std::make_unique<TextWriter>(out, shown);
}

}  // namespace archfit::report
