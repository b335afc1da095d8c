#include "placement/reporter.hpp"

namespace archfit::placement::detail {

Finding& Reporter::add(const char* rule, Severity severity, std::string message, yaml::NodeRef at,
                       const std::string& field) {
  Finding& f = out_.emplace_back();
  f.rule = rule;
  f.severity = severity;
  f.message = std::move(message);
  f.file = where_.file;
  f.document = where_.document;
  if (!at) at = where_.pod_template->spec;
  f.line = at.line();
  f.column = at.column();
  const manifest::Workload& w = *where_.workload;
  f.resource = ResourceRef{w.api_version, w.kind, w.name, w.namespace_name};
  f.field_path = path(field);
  return f;
}

std::string Reporter::path(const std::string& field) const {
  std::string out = where_.workload->path;
  for (const std::string& part : {where_.pod_template->path, field}) {
    if (part.empty()) continue;
    if (!out.empty()) out += '.';
    out += part;
  }
  return out;
}

}  // namespace archfit::placement::detail
