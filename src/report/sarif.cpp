// sarif: SARIF 2.1.0 for code scanning. One run; the rule table is
// tool.driver.rules; each finding a result with its rule, level, message,
// location (a relative URI, the region in characters) and a fingerprint that
// does not depend on lines, so that alerts survive edits above them and
// manifests rendered afresh. Written as findings come.
#include <filesystem>

#include <rapidjson/ostreamwrapper.h>
#include <rapidjson/writer.h>

#include <archfit/report/rules.hpp>

#include "report/writers.hpp"

namespace archfit::report::detail {

namespace {

using placement::Finding;
using placement::Severity;

const char* level(Severity s) {
  switch (s) {
    case Severity::Error:
      return "error";
    case Severity::Warning:
      return "warning";
    case Severity::Info:
      return "note";
  }
  return "note";
}

// A relative URI for a file as the user named it: ./ dropped, an absolute
// path under the working directory made relative, anything outside the
// unreserved characters and '/' percent-encoded.
std::string artifact_uri(const std::string& file) {
  std::string path = file;
  std::error_code ec;
  if (std::filesystem::path(path).is_absolute()) {
    std::filesystem::path rel =
        std::filesystem::path(path).lexically_relative(std::filesystem::current_path(ec));
    if (!ec && !rel.empty() && *rel.begin() != "..") path = rel.string();
  }
  while (path.starts_with("./"))
    path.erase(0, 2);
  std::string out;
  for (unsigned char c : path) {
    bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                c == '-' || c == '.' || c == '_' || c == '~' || c == '/';
    if (keep) {
      out += static_cast<char>(c);
    } else {
      static const char* const kHex = "0123456789ABCDEF";
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

class SarifWriter : public Writer {
 public:
  SarifWriter(std::ostream& out, const WriterOptions& options)
      : options_(options), stream_(out), w_(stream_) {
    w_.StartObject();
    string("$schema", "https://json.schemastore.org/sarif-2.1.0.json");
    string("version", "2.1.0");
    w_.Key("runs");
    w_.StartArray();
    w_.StartObject();
    w_.Key("tool");
    w_.StartObject();
    w_.Key("driver");
    w_.StartObject();
    string("name", "archfit");
    if (!options.tool_version.empty()) string("version", options.tool_version);
    string("informationUri", homepage());
    w_.Key("rules");
    w_.StartArray();
    for (const Rule& r : rules())
      write_rule(r);
    w_.EndArray();
    w_.EndObject();
    w_.EndObject();
    if (!options.category.empty()) {
      std::string id = options.category;
      if (!id.ends_with('/')) id += '/';
      w_.Key("automationDetails");
      w_.StartObject();
      string("id", id);
      w_.EndObject();
    }
    string("columnKind", "unicodeCodePoints");
    w_.Key("results");
    w_.StartArray();
  }

  void add(const Finding& f) override {
    const Rule& r = rule(f.rule);
    w_.StartObject();
    string("ruleId", f.rule);
    w_.Key("ruleIndex");
    w_.Uint(static_cast<unsigned>(&r - rules().data()));
    string("level", level(f.severity));
    w_.Key("message");
    w_.StartObject();
    string("text", f.message);
    w_.EndObject();
    w_.Key("locations");
    w_.StartArray();
    w_.StartObject();
    w_.Key("physicalLocation");
    w_.StartObject();
    // With a source root, the alert goes on the chart's template (lines of
    // the rendered stream mean nothing there) and the stream is related.
    std::string source = source_path(f, options_);
    bool on_source = !source.empty() && !options_.source_root.empty();
    w_.Key("artifactLocation");
    w_.StartObject();
    string("uri", artifact_uri(on_source ? source : f.file));
    w_.EndObject();
    if (on_source) {
      w_.Key("region");
      w_.StartObject();
      w_.Key("startLine");
      w_.Uint(1);
      w_.EndObject();
    } else if (f.line > 0) {
      w_.Key("region");
      w_.StartObject();
      w_.Key("startLine");
      w_.Uint(f.line);
      w_.Key("startColumn");
      w_.Uint(f.column);
      bool end = f.end_line > f.line || (f.end_line == f.line && f.end_column > f.column);
      w_.Key("endLine");
      w_.Uint(end ? f.end_line : f.line);
      w_.Key("endColumn");
      w_.Uint(end ? f.end_column : f.column + 1);
      w_.EndObject();
    }
    w_.EndObject();
    if (!f.resource.kind.empty()) {
      w_.Key("logicalLocations");
      w_.StartArray();
      w_.StartObject();
      std::string name =
          f.resource.kind + "/" +
          (f.resource.namespace_name.empty() ? "" : f.resource.namespace_name + "/") +
          f.resource.name;
      string("fullyQualifiedName", name);
      string("kind", "resource");
      w_.EndObject();
      w_.EndArray();
    }
    w_.EndObject();
    w_.EndArray();
    if (!source.empty()) {
      w_.Key("relatedLocations");
      w_.StartArray();
      w_.StartObject();
      w_.Key("id");
      w_.Uint(1);
      w_.Key("physicalLocation");
      w_.StartObject();
      w_.Key("artifactLocation");
      w_.StartObject();
      string("uri", artifact_uri(on_source ? f.file : source));
      w_.EndObject();
      if (on_source && f.line > 0) {
        w_.Key("region");
        w_.StartObject();
        w_.Key("startLine");
        w_.Uint(f.line);
        w_.Key("startColumn");
        w_.Uint(f.column);
        w_.EndObject();
      }
      w_.EndObject();
      w_.Key("message");
      w_.StartObject();
      string("text", on_source ? "where it was rendered" : "the template it was rendered from");
      w_.EndObject();
      w_.EndObject();
      w_.EndArray();
    }
    w_.Key("partialFingerprints");
    w_.StartObject();
    string("archfitFinding/v1", fingerprint(f));
    w_.EndObject();
    w_.Key("properties");
    w_.StartObject();
    string("fieldPath", f.field_path);
    w_.Key("fixable");
    w_.Bool(f.fixable);
    w_.EndObject();
    w_.EndObject();
  }

  void finish(const Summary&) override {
    w_.EndArray();  // results
    w_.EndObject();
    w_.EndArray();  // runs
    w_.EndObject();
    stream_.Put('\n');
    stream_.Flush();
  }

 private:
  void string(const char* key, std::string_view value) {
    w_.Key(key);
    w_.String(value.data(), static_cast<rapidjson::SizeType>(value.size()));
  }
  void text(const char* key, std::string_view value) {
    w_.Key(key);
    w_.StartObject();
    string("text", value);
    w_.EndObject();
  }

  void write_rule(const Rule& r) {
    w_.StartObject();
    string("id", r.id);
    text("shortDescription", r.summary);
    text("fullDescription", r.description);
    std::string uri = r.help_uri();
    w_.Key("help");
    w_.StartObject();
    std::string help = std::string(r.description) + " See " + uri;
    string("text", help);
    string("markdown", std::string(r.description) + "\n\n[docs/rules.md#" + std::string(r.id) +
                           "](" + uri + ")");
    w_.EndObject();
    string("helpUri", uri);
    w_.Key("defaultConfiguration");
    w_.StartObject();
    string("level", level(r.severity));
    w_.EndObject();
    w_.Key("properties");
    w_.StartObject();
    w_.Key("tags");
    w_.StartArray();
    w_.String("kubernetes");
    w_.String("scheduling");
    w_.EndArray();
    w_.EndObject();
    w_.EndObject();
  }

  WriterOptions options_;
  rapidjson::OStreamWrapper stream_;
  rapidjson::Writer<rapidjson::OStreamWrapper> w_;
};

}  // namespace

std::unique_ptr<Writer> sarif_writer(std::ostream& out, const WriterOptions& options) {
  return std::make_unique<SarifWriter>(out, options);
}

}  // namespace archfit::report::detail
