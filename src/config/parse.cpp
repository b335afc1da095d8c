// The three shapes a configuration arrives in:
//   kind: ArchFit (apiVersion archfit.io/v1alpha1), keys at the top level,
//     as a file or a KRM functionConfig;
//   the same keys without apiVersion and kind (a plain .archfit.yaml);
//   kind: ConfigMap with the keys flat in `data` as strings ("placement.mode"),
//     which is how kustomize hands simple function configs over.
#include <archfit/base/text.hpp>
#include <archfit/config/loader.hpp>
#include <archfit/config/schema.hpp>
#include <archfit/config/suggest.hpp>
#include <archfit/yaml/parse.hpp>
#include <archfit/yaml/value.hpp>

namespace archfit::config {

namespace {

constexpr std::string_view kApiVersion = "archfit.io/v1alpha1";
constexpr std::string_view kKind = "ArchFit";

// A functionConfig's `lock`: a path, the lock file's JSON as text, or (typed
// functionConfig) the lock as a mapping.
void read_function_lock(const Field& f, ParsedConfig& out) {
  if (f.is_mapping()) {
    out.lock_content = yaml::to_json(yaml::to_value(f.node()));
    return;
  }
  std::string text = f.as_string();
  std::string_view t = trim(text);
  if (t.empty()) f.fail("expected a lock file's path or its content, got an empty string");
  if (t.front() == '{') {
    out.lock_content = std::string(t);
  } else {
    out.lock_path = std::string(t);
  }
}

// Keys at `prefix` of a mapping: leaves go to their setter, sections recurse.
void read_section(const Field& mapping, std::string_view prefix, ParsedConfig& out) {
  std::vector<std::string_view> valid = keys_under(prefix);
  if (prefix.empty()) valid.insert(valid.begin(), {"apiVersion", "kind", "metadata"});
  for (const Field::Entry& e : mapping.entries()) {
    if (prefix.empty() && (e.key == "apiVersion" || e.key == "kind" || e.key == "metadata")) {
      continue;  // checked by the caller
    }
    // A kustomize legacy plugin's configuration: kustomize itself turns these
    // into arguments (kustomize-plugin/, docs/kustomize.md).
    if (prefix.empty() && (e.key == "argsOneLiner" || e.key == "argsFromFile")) continue;
    if (prefix.empty() && e.key == "lock" && out.function_config) {
      read_function_lock(e.value, out);
      continue;
    }
    // Dotted paths are keys of a ConfigMap's data only.
    bool dotted = e.key.find('.') != std::string::npos;
    if (const KeySpec* spec = dotted ? nullptr : find_key(e.value.path())) {
      if (!e.value.is_null()) spec->set(e.value, out);
    } else if (!dotted && is_section(e.value.path())) {
      Field section = e.value.parsed();
      if (section.is_null()) continue;
      if (!section.is_mapping()) {
        section.fail("expected a mapping of " + join(keys_under(e.value.path())) + ", got " +
                     section.describe());
      }
      read_section(section, e.value.path(), out);
    } else if (dotted && find_key(e.value.path())) {
      std::string_view path = e.value.path();
      std::size_t dot = path.rfind('.');
      e.key_field.fail("dotted keys are for a ConfigMap's data; nest it here, as " +
                       std::string(path.substr(0, dot)) + ": {" +
                       std::string(path.substr(dot + 1)) + ": ...}");
    } else {
      unknown_key(e.key_field, valid);
    }
  }
}

// A ConfigMap's data: every key is a dotted path and every value a string.
void read_flat(const Field& data, ParsedConfig& out) {
  if (!data.is_null() && !data.is_mapping())
    data.fail("expected a mapping, got " + data.describe());
  for (const Field::Entry& e : data.renamed("").entries()) {  // keys name themselves
    Field value = e.value.as_flat();
    if (e.key == "lock" && out.function_config) {
      read_function_lock(value, out);
      continue;
    }
    if (const KeySpec* spec = find_key(e.key)) {
      if (!value.is_null()) spec->set(value, out);
    } else if (is_section(e.key)) {
      // A whole section as YAML text: `placement: "mode: nodeSelector"`.
      Field section = value.parsed();
      if (section.is_null()) continue;
      if (!section.is_mapping()) {
        section.fail("expected YAML text of a mapping of " + join(keys_under(e.key)) + ", got " +
                     section.describe());
      }
      read_section(section, e.key, out);
    } else {
      unknown_key(e.key_field, flat_keys());
    }
  }
}

std::string scalar_of(const Field& f) {
  return f.is_null() ? std::string() : f.as_string();
}

}  // namespace

void read_config_document(yaml::NodeRef root, ConfigDocument& doc, ParsedConfig& out) {
  Field top(root, doc.root_origin(), &doc, "");
  if (top.is_null()) return;  // an empty file: the defaults
  if (!top.is_mapping()) {
    top.fail("expected a mapping of configuration keys (see docs/configuration.md), got " +
             top.describe());
  }
  std::optional<Field> api_version, kind, metadata, data;
  for (const Field::Entry& e : top.entries()) {
    if (e.key == "apiVersion") api_version = e.value;
    if (e.key == "kind") kind = e.value;
    if (e.key == "metadata") metadata = e.value;
  }
  if (metadata && !metadata->is_null() && !metadata->is_mapping()) {
    metadata->fail("expected a mapping, got " + metadata->describe());
  }
  std::string kind_name = kind ? scalar_of(*kind) : "";
  std::string version = api_version ? scalar_of(*api_version) : "";
  if (kind_name == "ConfigMap") {
    if (!version.empty() && version != "v1") {
      api_version->fail("a ConfigMap's apiVersion is v1, not " + archfit::quoted(version));
    }
    for (const Field::Entry& e : top.entries({"apiVersion", "kind", "metadata", "data"})) {
      if (e.key == "data") read_flat(e.value, out);
    }
    return;
  }
  if (!kind_name.empty()) {
    if (kind_name != kKind) {
      kind->fail(archfit::quoted(kind_name) +
                 " is not an archfit configuration; use kind: ArchFit, or a ConfigMap with the "
                 "settings in data" +
                 did_you_mean(kind_name, {kKind, "ConfigMap"}));
    }
    if (!api_version) {
      kind->fail("apiVersion is missing; add apiVersion: " + std::string(kApiVersion));
    }
    if (version != kApiVersion) {
      api_version->fail("unsupported apiVersion " + archfit::quoted(version) + "; use " +
                        std::string(kApiVersion));
    }
  } else if (api_version) {
    api_version->fail("kind is missing; add kind: ArchFit");
  }
  read_section(top, "", out);
}

Settings parse_config(yaml::NodeRef root, const std::string& file_name) {
  ConfigDocument doc(file_name);
  ParsedConfig parsed;
  read_config_document(root, doc, parsed);
  resolve::Settings resolve = parsed.resolve;
  return Settings{finish_config(std::move(parsed), false), std::move(resolve)};
}

Settings parse_config(std::string_view text, const std::string& file_name) {
  yaml::Tree tree;
  try {
    tree = yaml::parse_document(text);
  } catch (const Error& e) {
    throw Error(ErrorKind::Config, e.message(), e.in_file(file_name).where());
  }
  return parse_config(tree.root(), file_name);
}

}  // namespace archfit::config
