// Builds one template's findings with its file, document, resource and the
// field path from the document root filled in.
#pragma once

#include <string>
#include <vector>

#include <archfit/findings/finding.hpp>
#include <archfit/placement/plan.hpp>
#include <archfit/yaml/node.hpp>
#include <archfit/yaml/path.hpp>

namespace archfit::placement::detail {

class Reporter {
 public:
  Reporter(const TemplateContext& where, std::vector<findings::Finding>& out)
      : where_(where), out_(out) {}

  // Whether a finding of this kind is wanted at all (see TemplateContext::quiet).
  bool wants(findings::Severity severity, bool fixable) const {
    return !where_.quiet || (severity > findings::Severity::Info && !fixable);
  }

  findings::Finding& add(const char* rule, findings::Severity severity, std::string message,
                         yaml::NodeRef at, const yaml::Path& field);

  // The path of a field below the pod template, from the document root.
  yaml::Path path(const yaml::Path& field) const;

  const TemplateContext& where() const { return where_; }

 private:
  const TemplateContext& where_;
  std::vector<findings::Finding>& out_;
};

}  // namespace archfit::placement::detail
