// The syntax Kubernetes requires of the names a configuration writes into pod
// templates: label keys and values, annotation keys, namespace names. Checked
// when the configuration is read, so that a typo is reported at its line
// rather than by the API server after archfit has rewritten the manifests.
#pragma once

#include <string>
#include <string_view>

#include <archfit/config/field.hpp>

namespace archfit::config {

// The syntaxes.
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
};

// Whether `text` has `syntax`; if not, `why` says what rule it breaks.
bool is_valid(Syntax syntax, std::string_view text, std::string* why = nullptr);

// Fails at `at` with "invalid <noun> "<text>": <rule>" unless `text` has `syntax`.
void require(Syntax syntax, std::string_view text, std::string_view noun, const Field& at);

}  // namespace archfit::config
