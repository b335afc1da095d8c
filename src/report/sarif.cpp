// sarif: SARIF 2.1.0 for code scanning. One run; the rule table is
// tool.driver.rules; each finding a result with its rule, level, message,
// location (a relative URI, the region in characters) and a fingerprint that
// does not depend on lines, so that alerts survive edits above them and
// manifests rendered afresh. Written as findings come.
#include <filesystem>
#include <string>
#include <unordered_map>

#include <archfit/findings/rules.hpp>

#include "report/json_out.hpp"
#include "report/writers.hpp"

namespace archfit::report::detail {

namespace {

using findings::Finding;
using findings::Severity;

Words level(findings::Severity s) {
  switch (s) {
    case findings::Severity::Error:
      return "error";
    case findings::Severity::Warning:
      return "warning";
    case findings::Severity::Info:
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
      : options_(options), out_(out), w_(out_.w()) {
    w_.StartObject();
    out_.string("$schema", Words("https://json.schemastore.org/sarif-2.1.0.json"));
    out_.string("version", Words("2.1.0"));
    w_.key("runs");
    w_.StartArray();
    w_.StartObject();
    w_.key("tool");
    w_.StartObject();
    w_.key("driver");
    w_.StartObject();
    out_.string("name", Words("archfit"));
    if (!options.tool_version.empty()) out_.string("version", Untrusted(options.tool_version));
    out_.string("informationUri", Words::table(findings::homepage()));
    w_.key("rules");
    w_.StartArray();
    for (const findings::Rule& r : findings::rules())
      write_rule(r);
    w_.EndArray();
    w_.EndObject();
    w_.EndObject();
    if (!options.category.empty()) {
      std::string id = options.category;
      if (!id.ends_with('/')) id += '/';
      w_.key("automationDetails");
      w_.StartObject();
      out_.string("id", Untrusted(id));
      w_.EndObject();
    }
    out_.string("columnKind", Words("unicodeCodePoints"));
    w_.key("results");
    w_.StartArray();
  }

  void add(const findings::Finding& f) override {
    const findings::Rule& r = findings::rule(f.rule);
    w_.StartObject();
    out_.string("ruleId", Words::rule(f.rule));
    out_.number("ruleIndex", static_cast<unsigned>(&r - findings::rules().data()));
    out_.string("level", level(f.severity));
    text("message", Untrusted(f.message));
    // With a source root, the alert goes on the chart's template (lines of
    // the rendered stream mean nothing there: line 1) and the stream, where
    // the finding is, is related.
    std::string source = source_path(f, options_);
    bool on_source = !source.empty() && !options_.source_root.empty();
    Region in_stream = region_of(f);
    w_.key("locations");
    w_.StartArray();
    w_.StartObject();
    physical_location(on_source ? source : f.file, on_source ? Region{1, 0, 0, 0} : in_stream);
    if (!f.resource.kind.empty()) {
      w_.key("logicalLocations");
      w_.StartArray();
      w_.StartObject();
      out_.string(
          "fullyQualifiedName",
          Untrusted(f.resource.kind + "/" +
                    (f.resource.namespace_name.empty() ? "" : f.resource.namespace_name + "/") +
                    f.resource.name));
      out_.string("kind", Words("resource"));
      w_.EndObject();
      w_.EndArray();
    }
    w_.EndObject();
    w_.EndArray();
    if (!source.empty()) {
      w_.key("relatedLocations");
      w_.StartArray();
      w_.StartObject();
      out_.number("id", 1);
      physical_location(on_source ? f.file : source, on_source ? in_stream : Region{});
      text("message",
           on_source ? Words("where it was rendered") : Words("the template it was rendered from"));
      w_.EndObject();
      w_.EndArray();
    }
    w_.key("partialFingerprints");
    w_.StartObject();
    out_.string("archfitFinding/v1", Words::made(fingerprint(f)));
    w_.EndObject();
    w_.key("properties");
    w_.StartObject();
    out_.string("fieldPath", Untrusted(yaml::field_text(f.field_path)));
    w_.key("fixable");
    w_.Bool(f.fixable);
    w_.EndObject();
    w_.EndObject();
  }

  void finish(const Summary&) override {
    w_.EndArray();  // results
    w_.EndObject();
    w_.EndArray();  // runs
    w_.EndObject();
    out_.end_document();
  }

 private:
  // 1-based; 0 leaves a field out (a region without a line is left out).
  struct Region {
    std::uint32_t line = 0;
    std::uint32_t column = 0;
    std::uint32_t end_line = 0;
    std::uint32_t end_column = 0;
  };

  // Where the finding is in its file; a node whose end is unknown spans one
  // character.
  static Region region_of(const findings::Finding& f) {
    if (f.line == 0) return {};
    bool end = f.end_line > f.line || (f.end_line == f.line && f.end_column > f.column);
    return Region{f.line, f.column, end ? f.end_line : f.line, end ? f.end_column : f.column + 1};
  }

  // "physicalLocation": {"artifactLocation": {"uri"}, "region": {...}}
  void physical_location(const std::string& file, const Region& region) {
    w_.key("physicalLocation");
    w_.StartObject();
    w_.key("artifactLocation");
    w_.StartObject();
    out_.string("uri", Words::made(uri_of(file)));
    w_.EndObject();
    if (region.line > 0) {
      w_.key("region");
      w_.StartObject();
      out_.number("startLine", region.line);
      if (region.column > 0) out_.number("startColumn", region.column);
      if (region.end_line > 0) out_.number("endLine", region.end_line);
      if (region.end_column > 0) out_.number("endColumn", region.end_column);
      w_.EndObject();
    }
    w_.EndObject();
  }

  // A finding names its file and often the template it came from, and a
  // file's findings come together: each URI is made once, not per finding.
  const std::string& uri_of(const std::string& file) {
    auto it = uris_.find(file);
    if (it != uris_.end()) return it->second;
    if (uris_.size() >= kUrisKept) uris_.clear();
    return uris_.emplace(file, artifact_uri(file)).first->second;
  }

  template <class Value>
  void text(PlainKey key, Value value) {
    w_.key(key);
    w_.StartObject();
    out_.string("text", value);
    w_.EndObject();
  }

  // The rule table's entries: archfit's own text.
  void write_rule(const findings::Rule& r) {
    w_.StartObject();
    out_.string("id", Words::table(r.id));
    text("shortDescription", Words::table(r.summary));
    text("fullDescription", Words::table(r.description));
    std::string uri = r.help_uri();
    w_.key("help");
    w_.StartObject();
    std::string help = std::string(r.description) + " See " + uri;
    out_.string("text", Words::made(help));
    std::string markdown =
        std::string(r.description) + "\n\n[docs/rules.md#" + std::string(r.id) + "](" + uri + ")";
    out_.string("markdown", Words::made(markdown));
    w_.EndObject();
    out_.string("helpUri", Words::made(uri));
    w_.key("defaultConfiguration");
    w_.StartObject();
    out_.string("level", level(r.severity));
    w_.EndObject();
    w_.key("properties");
    w_.StartObject();
    w_.key("tags");
    w_.StartArray();
    w_.string(Words("kubernetes"));
    w_.string(Words("scheduling"));
    w_.EndArray();
    w_.EndObject();
    w_.EndObject();
  }

  WriterOptions options_;
  JsonOut out_;
  JsonOut::Writer& w_;
  static constexpr std::size_t kUrisKept = 4096;
  std::unordered_map<std::string, std::string> uris_;
};

}  // namespace

std::unique_ptr<Writer> sarif_writer(std::ostream& out, const WriterOptions& options) {
  return std::make_unique<SarifWriter>(out, options);
}

}  // namespace archfit::report::detail
