// The syntax Kubernetes requires of the names archfit writes: label keys and
// values, annotation keys, namespace and object names (apimachinery's
// validation). The configuration checks what it reads with it, and spread
// checks what it would write from the manifests before writing anything.
#pragma once

#include <string>
#include <string_view>

namespace archfit::nodepools {

enum class Syntax {
  // A label or annotation key: [prefix/]name, prefix a DNS subdomain of at
  // most 253 characters, name at most 63 characters of [A-Za-z0-9_.-] that
  // starts and ends alphanumeric (apimachinery IsQualifiedName).
  QualifiedName,
  // A label value: empty, or a name as above (apimachinery IsValidLabelValue).
  LabelValue,
  // A namespace name: a DNS-1123 label, at most 63 of [a-z0-9-], alphanumeric
  // at both ends.
  DnsLabel,
  // An object name such as a Deployment's: a DNS-1123 subdomain, at most 253
  // characters of lowercase DNS labels joined by '.'.
  DnsSubdomain,
};

// Whether `text` has `syntax`; if not, `why` says what rule it breaks.
bool is_valid(Syntax syntax, std::string_view text, std::string* why = nullptr);

}  // namespace archfit::nodepools
