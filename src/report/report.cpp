#include <archfit/base/error.hpp>
#include <archfit/report/report.hpp>

#include <algorithm>
#include <string>
#include <tuple>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

namespace archfit::report {

using placement::Finding;
using placement::Severity;

Format parse_format(std::string_view name) {
  if (name == "text") return Format::Text;
  if (name == "json") return Format::Json;
  fail(ErrorKind::Usage, "unknown format \"" + std::string(name) + "\"; use text or json");
}

Counts count(const std::vector<Finding>& findings) {
  Counts c;
  for (const Finding& f : findings) {
    switch (f.severity) {
      case Severity::Error: ++c.errors; break;
      case Severity::Warning: ++c.warnings; break;
      case Severity::Info: ++c.infos; break;
    }
  }
  return c;
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

}  // namespace

void write_text(std::ostream& out, const std::vector<Finding>& findings, const Summary& summary,
                Severity shown) {
  for (const Finding& f : findings) {
    if (f.severity < shown) continue;
    out << f.file;
    if (f.line > 0) out << ':' << f.line << ':' << f.column;
    out << ": " << placement::severity_name(f.severity) << ' ' << f.rule << ": " << f.message
        << '\n';
  }
  Counts c = count(findings);
  out << plural(c.errors, "error") << ", " << plural(c.warnings, "warning") << ", "
      << plural(c.infos, "info") << " in " << plural(summary.files, "file") << " ("
      << plural(summary.workloads, "workload") << ")\n";
}

void write_json(std::ostream& out, const std::vector<Finding>& findings, const Summary& summary) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  auto string = [&w](const char* key, const std::string& value) {
    w.Key(key);
    w.String(value.c_str(), static_cast<rapidjson::SizeType>(value.size()));
  };
  auto raw_or_null = [&w](const char* key, const std::string& json) {
    w.Key(key);
    if (json.empty()) {
      w.Null();
    } else {
      w.RawValue(json.c_str(), json.size(), rapidjson::kObjectType);
    }
  };
  w.StartObject();
  w.Key("findings");
  w.StartArray();
  for (const Finding& f : findings) {
    w.StartObject();
    string("rule", f.rule);
    string("severity", std::string(placement::severity_name(f.severity)));
    string("message", f.message);
    string("file", f.file);
    w.Key("line");
    w.Uint(f.line);
    w.Key("column");
    w.Uint(f.column);
    w.Key("document");
    w.Uint(f.document);
    w.Key("resource");
    w.StartObject();
    string("apiVersion", f.resource.api_version);
    string("kind", f.resource.kind);
    string("namespace", f.resource.namespace_name);
    string("name", f.resource.name);
    w.EndObject();
    w.Key("field");
    w.StartObject();
    string("path", f.field_path);
    raw_or_null("current", f.current);
    raw_or_null("proposed", f.proposed);
    w.EndObject();
    w.Key("fixable");
    w.Bool(f.fixable);
    w.EndObject();
  }
  w.EndArray();
  Counts c = count(findings);
  w.Key("summary");
  w.StartObject();
  w.Key("files");
  w.Uint64(summary.files);
  w.Key("workloads");
  w.Uint64(summary.workloads);
  w.Key("templates");
  w.Uint64(summary.templates);
  w.Key("errors");
  w.Uint64(c.errors);
  w.Key("warnings");
  w.Uint64(c.warnings);
  w.Key("infos");
  w.Uint64(c.infos);
  w.EndObject();
  w.EndObject();
  out << buffer.GetString() << '\n';
}

}  // namespace archfit::report
