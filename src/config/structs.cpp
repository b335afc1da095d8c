// Readers of the structured configuration values: architectures and their
// tolerations, weights, extra kinds, the label selector, tag TTLs and mirrors.
// Tolerations and selectors are checked the way the API server would check
// them in a pod, since archfit writes them into pod templates.
#include <limits>
#include <map>
#include <optional>

#include <archfit/base/text.hpp>
#include <archfit/config/names.hpp>
#include <archfit/config/schema.hpp>
#include <archfit/config/suggest.hpp>

namespace archfit::config {

Labels read_labels(const Field& value) {
  Labels out;
  for (const Field::Entry& e : value.entries()) {
    require(Syntax::QualifiedName, e.key, "label key", e.key_field);
    std::string text = e.value.as_string();
    require(Syntax::LabelValue, text, "label value", e.value);
    out.emplace_back(e.key, std::move(text));
  }
  return out;
}

namespace {

// Architecture keys are normalized, so "aarch64" and "arm64" are one key.
std::string architecture_key(const Field::Entry& e, std::map<std::string, std::uint32_t>& seen) {
  std::string arch = e.key_field.as_architecture();
  auto [it, fresh] = seen.emplace(arch, e.key_field.where().line);
  if (!fresh) {
    e.key_field.fail("names the architecture " + archfit::quoted(arch) + " again (also at line " +
                     std::to_string(it->second) + "); keep one");
  }
  return arch;
}

bool is_kind_name(std::string_view text) {
  if (text.empty() || text.front() < 'A' || text.front() > 'Z') return false;
  for (char c : text) {
    bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (!alnum) return false;
  }
  return true;
}

std::string read_kind(const Field& f) {
  std::string kind = f.as_string();
  if (!is_kind_name(kind)) {
    f.fail(archfit::quoted(kind) + " is not a kind; write kinds as manifests do, e.g. DaemonSet");
  }
  return kind;
}

// "", "v1", "group/version" or "group/*" (every version of the group).
bool is_api_version_pattern(std::string_view text) {
  if (text.empty()) return true;
  std::vector<std::string_view> parts = split(text, '/');
  if (parts.size() > 2) return false;
  for (std::string_view part : parts) {
    if (part.empty()) return false;
    for (char c : part) {
      bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                c == '.' || c == '-' || (c == '*' && part.size() == 1 && parts.size() == 2);
      if (!ok) return false;
    }
  }
  return parts.size() == 2 || parts[0] != "*";
}

// Dotted field names; "[]" after a name means every item of that list.
bool is_template_path(std::string_view text) {
  if (text.empty()) return false;
  for (std::string_view part : split(text, '.')) {
    if (part.size() >= 2 && part.substr(part.size() - 2) == "[]") part.remove_suffix(2);
    if (part.empty()) return false;
    for (char c : part) {
      bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                c == '_' || c == '-';
      if (!ok) return false;
    }
  }
  return true;
}

manifest::KindRule read_kind_rule(const Field& item) {
  constexpr const char* kExample =
      "e.g. {apiVersion: argoproj.io/v1alpha1, kind: Rollout, podTemplate: spec.template}";
  manifest::KindRule rule;
  bool has_kind = false, has_path = false;
  for (const Field::Entry& e : item.entries({"apiVersion", "kind", "podTemplate"})) {
    if (e.value.is_null()) continue;
    if (e.key == "apiVersion") {
      rule.api_version = e.value.as_string();
      if (!is_api_version_pattern(rule.api_version)) {
        e.value.fail(archfit::quoted(rule.api_version) +
                     " is not an apiVersion; write group/version, group/* for every version, or "
                     "v1");
      }
    } else if (e.key == "kind") {
      rule.kind = read_kind(e.value);
      has_kind = true;
    } else {
      rule.pod_template = e.value.as_string();
      has_path = true;
      if (!is_template_path(rule.pod_template)) {
        e.value.fail(archfit::quoted(rule.pod_template) +
                     " is not a field path; write dotted field names from the object to the pod "
                     "template, with [] after a list, e.g. spec.template or "
                     "spec.templates[].template");
      }
    }
  }
  if (!has_kind) item.fail(std::string("missing kind; ") + kExample);
  if (!has_path) item.fail(std::string("missing podTemplate; ") + kExample);
  return rule;
}

placement::LabelSelector::Requirement read_requirement(const Field& item) {
  static const std::vector<std::string_view> kOperators = {"In", "NotIn", "Exists", "DoesNotExist"};
  placement::LabelSelector::Requirement r;
  std::optional<Field> values_field;
  bool has_key = false;
  for (const Field::Entry& e : item.entries({"key", "operator", "values"})) {
    if (e.value.is_null()) continue;
    if (e.key == "key") {
      r.key = e.value.as_string();
      require(Syntax::QualifiedName, r.key, "label key", e.value);
      has_key = true;
    } else if (e.key == "operator") {
      r.op = kOperators[e.value.as_enum("an operator", kOperators)];
    } else {
      values_field = e.value;
      for (const Field& v : e.value.items()) {
        std::string text = v.as_string();
        require(Syntax::LabelValue, text, "label value", v);
        r.values.push_back(std::move(text));
      }
    }
  }
  if (!has_key) item.fail("missing key; e.g. {key: tier, operator: In, values: [web]}");
  if (r.op.empty()) item.fail("missing operator; use one of In, NotIn, Exists, DoesNotExist");
  bool set_based = r.op == "In" || r.op == "NotIn";
  if (set_based && r.values.empty()) {
    (values_field ? *values_field : item).fail("operator " + r.op + " needs at least one value");
  }
  if (!set_based && !r.values.empty()) {
    values_field->fail("must be empty when operator is " + r.op + "; remove values");
  }
  return r;
}

}  // namespace

placement::Toleration read_toleration(const Field& item) {
  placement::Toleration t;
  std::optional<Field> value_field, seconds_field;
  for (const Field::Entry& e :
       item.entries({"key", "operator", "value", "effect", "tolerationSeconds"})) {
    if (e.value.is_null()) continue;
    if (e.key == "key") {
      t.key = e.value.as_string();
      if (!t.key.empty()) require(Syntax::QualifiedName, t.key, "taint key", e.value);
    } else if (e.key == "operator") {
      // An empty operator means Equal, as in the API.
      if (!e.value.as_string().empty()) {
        t.op = e.value.as_enum("an operator", {"Equal", "Exists"}) == 0 ? "Equal" : "Exists";
      }
    } else if (e.key == "value") {
      t.value = e.value.as_string();
      value_field = e.value;
    } else if (e.key == "effect") {
      // An empty effect tolerates every effect.
      if (!e.value.as_string().empty()) {
        static const std::vector<std::string_view> kEffects = {"NoSchedule", "PreferNoSchedule",
                                                               "NoExecute"};
        t.effect = kEffects[e.value.as_enum("an effect", kEffects)];
      }
    } else {
      t.toleration_seconds = e.value.as_int(0, std::numeric_limits<std::int64_t>::max());
      seconds_field = e.value;
    }
  }
  if (t.key.empty() && t.op != "Exists") {
    item.fail(
        "operator must be Exists when key is empty (a toleration without a key tolerates "
        "every taint)");
  }
  if (t.op == "Exists" && !t.value.empty()) {
    value_field->fail("must be empty when operator is Exists; remove value or use operator: Equal");
  }
  // An empty value (valid) may have no field.
  if (t.op == "Equal" && !t.value.empty()) {
    require(Syntax::LabelValue, t.value, "taint value", *value_field);
  }
  if (t.toleration_seconds && t.effect != "NoExecute") {
    seconds_field->fail("applies only with effect: NoExecute; remove it or set effect: NoExecute");
  }
  return t;
}

void read_architectures(const Field& value, ParsedConfig& out) {
  std::map<std::string, std::uint32_t> seen;
  for (const Field::Entry& e : value.entries()) {
    std::string arch = architecture_key(e, seen);
    // Fields the entry leaves out keep the defaults; those it gives replace
    // them, so `tolerations: []` means none.
    placement::Architecture a = placement::Config::default_architecture(arch);
    for (const Field::Entry& f : e.value.entries({"tolerations", "nodeLabels"})) {
      if (f.value.is_null()) continue;
      if (f.key == "tolerations") {
        a.tolerations.clear();
        for (const Field& item : f.value.items())
          a.tolerations.push_back(read_toleration(item));
      } else {
        a.node_labels = read_labels(f.value);
        if (a.node_labels.empty()) {
          f.value.fail(
              "must name at least one label; remove nodeLabels to select nodes by "
              "kubernetes.io/arch: " +
              arch);
        }
      }
    }
    out.config.architectures[arch] = std::move(a);
    out.architecture_uses.push_back(ArchitectureUse{arch, e.key_field.path(), e.key_field.where()});
  }
}

void read_preferred_weights(const Field& value, ParsedConfig& out) {
  std::map<std::string, std::uint32_t> seen;
  out.config.preferred_weights.clear();
  for (const Field::Entry& e : value.entries()) {
    std::string arch = architecture_key(e, seen);
    out.config.preferred_weights[arch] = static_cast<int>(e.value.as_int(1, 100));
    out.architecture_uses.push_back(ArchitectureUse{arch, e.key_field.path(), e.key_field.where()});
  }
}

void read_kinds_extra(const Field& value, ParsedConfig& out) {
  out.extra_kinds.clear();
  for (const Field& item : value.items())
    out.extra_kinds.push_back(read_kind_rule(item));
}

void read_kinds_exclude(const Field& value, ParsedConfig& out) {
  out.excluded_kinds.clear();
  for (const Field& item : value.items())
    out.excluded_kinds.push_back(read_kind(item));
}

void read_selector(const Field& value, ParsedConfig& out) {
  static const std::vector<std::string_view> kKeys = {"matchLabels", "matchExpressions"};
  placement::LabelSelector selector;
  std::vector<Field::Entry> entries = value.entries();
  bool structured = false;
  for (const Field::Entry& e : entries)
    structured |= e.key == kKeys[0] || e.key == kKeys[1];
  if (!structured) {
    // A plain map is matchLabels; a key one typo away from matchLabels is
    // taken for that typo, not for a label.
    for (const Field::Entry& e : entries) {
      if (!closest(e.key, kKeys).empty()) unknown_key(e.key_field, kKeys);
    }
    selector.match_labels = read_labels(value);
  } else {
    for (const Field::Entry& e : value.entries(kKeys)) {
      if (e.key == kKeys[0]) {
        selector.match_labels = read_labels(e.value);
      } else {
        for (const Field& item : e.value.items()) {
          selector.match_expressions.push_back(read_requirement(item));
        }
      }
    }
  }
  out.config.selector = std::move(selector);
}

void read_tag_ttl(const Field& value, ParsedConfig& out) {
  // Keys are imagePullPolicy values; Never images are never resolved.
  for (const Field::Entry& e : value.entries({"IfNotPresent", "Always", "default"})) {
    if (e.value.is_null()) continue;
    out.resolve.tag_ttl[e.key] = e.value.as_duration();
  }
}

void read_mirrors(const Field& value, ParsedConfig& out) {
  out.resolve.mirrors.clear();
  for (const Field::Entry& e : value.entries()) {
    if (e.key.empty() || e.key.find("://") != std::string::npos) {
      e.key_field.fail(archfit::quoted(e.key) +
                       " is not a registry; write the host as in image names, "
                       "e.g. docker.io");
    }
    std::vector<std::string> hosts;
    // One mirror may be written as a plain string.
    std::vector<Field> items = e.value.node().resolved().is_scalar() && !e.value.is_null()
                                   ? std::vector<Field>{e.value}
                                   : e.value.items();
    for (const Field& item : items) {
      std::string host = item.as_string();
      if (host.empty() || host.find("://") != std::string::npos) {
        item.fail(archfit::quoted(host) +
                  " is not a mirror host; write host[:port][/path] without a "
                  "scheme, e.g. mirror.gcr.io");
      }
      hosts.push_back(std::move(host));
    }
    out.resolve.mirrors[e.key] = std::move(hosts);
  }
}

}  // namespace archfit::config
