// The syntax Kubernetes requires of the names a configuration writes into pod
// templates: label keys and values, annotation keys, namespace names. Checked
// when the configuration is read, so that a typo is reported at its line
// rather than by the API server after archfit has rewritten the manifests.
#pragma once

#include <string>
#include <string_view>

namespace archfit::config {

// Each returns "" when `text` is valid, else what rule it breaks.

// A label or annotation key: [prefix/]name, prefix a DNS subdomain of at most
// 253 characters, name at most 63 characters of [A-Za-z0-9_.-] that starts and
// ends alphanumeric (apimachinery IsQualifiedName).
std::string qualified_name_problem(std::string_view text);
// A label value: empty, or a name as above (apimachinery IsValidLabelValue).
std::string label_value_problem(std::string_view text);
// A namespace name: a DNS-1123 label, at most 63 of [a-z0-9-], alphanumeric at
// both ends.
std::string dns_label_problem(std::string_view text);

}  // namespace archfit::config
