#include <algorithm>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include <archfit/base/error.hpp>
#include <archfit/base/text.hpp>
#include <archfit/manifest/discover.hpp>

namespace archfit::manifest {

namespace {

using yaml::NodeRef;

// Fields are read as Kubernetes reads them: through aliases and merge keys.
NodeRef field(NodeRef mapping, std::string_view key) {
  return yaml::lookup(mapping, key).resolved();
}

std::string string_at(NodeRef mapping, std::string_view key) {
  NodeRef value = field(mapping, key);
  return value.is_scalar() ? std::string(value.scalar()) : std::string();
}

std::vector<std::pair<std::string, std::string>> string_map(NodeRef mapping) {
  std::vector<std::pair<std::string, std::string>> out;
  mapping = mapping.resolved();
  if (!mapping.is_mapping()) return out;
  for (std::size_t i = 0; i < mapping.size(); ++i) {
    NodeRef k = mapping.key(i).resolved();
    NodeRef v = mapping.value(i).resolved();
    if (yaml::is_merge_key(k)) {
      NodeRef sources = v;
      std::size_t n = sources.is_sequence() ? sources.size() : 1;
      for (std::size_t j = 0; j < n; ++j) {
        for (auto& entry : string_map(sources.is_sequence() ? sources.item(j) : sources)) {
          const auto& key = entry.first;
          bool own = mapping.find(key) != NodeRef::npos;
          bool seen =
              std::any_of(out.begin(), out.end(), [&](const auto& e) { return e.first == key; });
          if (!own && !seen) out.emplace_back(key, entry.second);
        }
      }
      continue;
    }
    // A null value is the empty string, as Kubernetes decodes it.
    if (k.is_scalar() && v.is_scalar()) out.emplace_back(k.scalar(), v.is_null() ? "" : v.scalar());
  }
  return out;
}

// A field of a workload that is not what Kubernetes reads there: the API
// server refuses the object, so the fault is its document's (docs/rules.md,
// invalid-document). A null reads as absent.
[[noreturn]] void wrong_type(NodeRef at, const yaml::Path& path, const char* expected) {
  std::string is = at.is_mapping()    ? "a mapping"
                   : at.is_sequence() ? "a list"
                                      : "the scalar " + archfit::quoted(at.scalar(), 40);
  yaml::fail_at(at, yaml::field_text(path) + " is " + is + ", where Kubernetes reads " + expected +
                        ": the API server refuses the object");
}

// A string field as Kubernetes' decoder reads it: absent, "" ; a null is the
// empty string, which a `required` field may not be; a number or a boolean
// is no string (the decoder refuses it, whatever its text).
std::string typed_string(NodeRef mapping, std::string_view key, const yaml::Path& at,
                         bool required = false) {
  NodeRef value = field(mapping, key);
  if (!value) return {};
  if (value.is_null()) {
    if (required) {
      yaml::fail_at(value, yaml::field_text(at / key) +
                               " is null, where Kubernetes requires a string: the API server "
                               "refuses the object");
    }
    return {};
  }
  if (!value.is_scalar()) wrong_type(value, at / key, "a string");
  if (!value.is_string()) {
    const yaml::ScalarType type = value.resolve().type;
    yaml::fail_at(value, yaml::field_text(at / key) + " is " +
                             (type == yaml::ScalarType::Bool ? "a boolean" : "a number") + " (" +
                             archfit::quoted(value.scalar(), 40) +
                             "), where Kubernetes reads a string: quote it; the API server "
                             "refuses the object");
  }
  return std::string(value.scalar());
}

// Labels as Kubernetes reads them: every value a string (a null is "").
std::vector<std::pair<std::string, std::string>> typed_labels(NodeRef mapping,
                                                              const yaml::Path& at) {
  mapping = mapping.resolved();
  if (!mapping || mapping.is_null()) return {};
  if (!mapping.is_mapping()) wrong_type(mapping, at, "a mapping of label to value");
  for (std::size_t i = 0; i < mapping.size(); ++i) {
    NodeRef k = mapping.key(i).resolved();
    if (yaml::is_merge_key(k) || !k.is_scalar()) continue;
    typed_string(mapping, k.scalar(), at);
  }
  return string_map(mapping);
}

// An image reference as Reference::try_parse reads it, parsed once per
// distinct text for the whole run: a stream names a few hundred images in
// tens of thousands of containers. Threads share the store; it keeps texts
// of at most kMaxLength bytes (a reference's name is at most 255) and is
// emptied at kMaxImages of them, so it stays small whatever the input.
std::optional<image::Reference> parse_reference(const std::string& text, std::string* why) {
  struct Parsed {
    std::optional<image::Reference> ref;
    std::string why;
  };
  constexpr std::size_t kMaxImages = 4096;
  constexpr std::size_t kMaxLength = 512;
  if (text.size() > kMaxLength) return image::Reference::try_parse(text, why);
  static std::mutex mutex;
  static std::unordered_map<std::string, Parsed> parsed;
  {
    std::lock_guard lock(mutex);
    if (auto it = parsed.find(text); it != parsed.end()) {
      if (why != nullptr) *why = it->second.why;
      return it->second.ref;
    }
  }
  Parsed p;
  p.ref = image::Reference::try_parse(text, &p.why);
  if (why != nullptr) *why = p.why;
  std::lock_guard lock(mutex);
  if (parsed.size() >= kMaxImages) parsed.clear();
  parsed.emplace(text, p);
  return std::move(p.ref);
}

// `spec_path`: where the pod spec is, for messages.
void add_containers(NodeRef spec, const yaml::Path& spec_path, std::string_view name, bool init,
                    std::vector<Container>& out) {
  NodeRef list = yaml::lookup(spec, name).resolved();
  if (!list || list.is_null()) return;
  yaml::Path path = spec_path / name;
  if (!list.is_sequence()) wrong_type(list, path, "a list of containers");
  for (std::size_t i = 0; i < list.size(); ++i) {
    NodeRef item = list.item(i).resolved();
    if (!item.is_mapping())
      wrong_type(item, path / yaml::PathStep::at(i), "a container (a mapping)");
    Container c;
    c.node = item;
    c.init = init;
    const yaml::Path at = path / yaml::PathStep::at(i);
    c.name = typed_string(item, "name", at, true);
    c.image = yaml::lookup(item, "image");
    // A null image is no image: the API server requires one.
    c.image_ref = typed_string(item, "image", at, true);
    if (c.image) c.reference = parse_reference(c.image_ref, &c.reference_error);
    c.pull_policy = typed_string(item, "imagePullPolicy", at);
    out.push_back(std::move(c));
  }
}

// Follows a dotted path in which "name[]" visits every item of a list, and
// calls `found` with each node reached and its concrete path.
template <typename Found>
void walk(NodeRef node, std::string_view path, yaml::Path& concrete, Found&& found) {
  node = node.resolved();
  if (path.empty()) {
    found(node, concrete);
    return;
  }
  std::size_t dot = path.find('.');
  std::string_view step = path.substr(0, dot);
  std::string_view rest = dot == std::string_view::npos ? std::string_view() : path.substr(dot + 1);
  bool every = step.size() > 2 && step.substr(step.size() - 2) == "[]";
  if (every) step.remove_suffix(2);
  NodeRef next = field(node, step);
  if (!next || next.is_null()) return;
  std::size_t mark = concrete.size();
  concrete.push_back(yaml::PathStep::of(std::string(step)));
  if (every && !next.is_sequence()) wrong_type(next, concrete, "a list");
  if (!every && !next.is_mapping()) wrong_type(next, concrete, "a mapping");
  if (!every) {
    walk(next, rest, concrete, found);
  } else if (next.is_sequence()) {
    for (std::size_t i = 0; i < next.size(); ++i) {
      concrete.push_back(yaml::PathStep::at(i));
      walk(next.item(i), rest, concrete, found);
      concrete.pop_back();
    }
  }
  concrete.resize(mark);
}

Workload make_workload(NodeRef object, const KindRule& rule, yaml::Path path) {
  Workload w;
  w.object = object;
  w.api_version = string_at(object, "apiVersion");
  w.kind = string_at(object, "kind");
  NodeRef metadata = field(object, "metadata");
  const yaml::Path meta = yaml::Path{} / "metadata";
  w.name = typed_string(metadata, "name", meta);
  w.namespace_name = typed_string(metadata, "namespace", meta);
  w.labels = typed_labels(field(metadata, "labels"), meta / "labels");
  // A count is an integer: "3" is no replica count to the decoder.
  if (NodeRef replicas = field(field(object, "spec"), "replicas");
      replicas && !replicas.is_null() &&
      (!replicas.is_scalar() || replicas.resolve().type != yaml::ScalarType::Int)) {
    wrong_type(replicas, yaml::Path{} / "spec" / "replicas", "an integer");
  }
  w.path = std::move(path);

  yaml::Path concrete;
  walk(object, rule.pod_template, concrete, [&](NodeRef node, const yaml::Path& where) {
    NodeRef spec = field(node, "spec");
    if (!spec || spec.is_null()) return;
    yaml::Path spec_path = where / "spec";
    if (!spec.is_mapping()) wrong_type(spec, spec_path, "a pod spec (a mapping)");
    PodTemplate t;
    t.node = node;
    t.spec = spec;
    t.path = where;
    t.namespace_name = w.namespace_name;
    t.labels =
        typed_labels(field(field(node, "metadata"), "labels"), where / "metadata" / "labels");
    add_containers(spec, spec_path, "containers", false, t.containers);
    add_containers(spec, spec_path, "initContainers", true, t.containers);
    NodeRef secrets = field(spec, "imagePullSecrets");
    for (std::size_t i = 0; secrets.is_sequence() && i < secrets.size(); ++i) {
      std::string name = typed_string(secrets.item(i).resolved(), "name",
                                      spec_path / "imagePullSecrets" / yaml::PathStep::at(i));
      if (!name.empty()) t.image_pull_secrets.push_back(std::move(name));
    }
    w.templates.push_back(std::move(t));
  });
  return w;
}

bool is_list_kind(std::string_view kind) {
  return kind.size() >= 4 && kind.substr(kind.size() - 4) == "List";
}

void discover_object(NodeRef object, const KindTable& kinds, yaml::Path path,
                     std::vector<Workload>& out, bool allow_list) {
  object = object.resolved();
  if (!object.is_mapping()) return;
  std::string api_version = string_at(object, "apiVersion");
  std::string kind = string_at(object, "kind");
  if (kind.empty() || kind == "CustomResourceDefinition") return;
  if (allow_list && is_list_kind(kind)) {
    NodeRef items = field(object, "items");
    if (!items.is_sequence()) return;
    for (std::size_t i = 0; i < items.size(); ++i) {
      discover_object(items.item(i), kinds, yaml::Path{} / "items" / yaml::PathStep::at(i), out,
                      false);
    }
    return;
  }
  if (const KindRule* rule = kinds.find(api_version, kind)) {
    // An object of a pod-running kind without a template (an Argo Rollout
    // with a workloadRef, an AnalysisTemplate with only metric queries) has
    // nothing to place.
    Workload w = make_workload(object, *rule, std::move(path));
    if (!w.templates.empty()) out.push_back(std::move(w));
  }
}

}  // namespace

std::vector<Workload> discover(const yaml::Tree& tree, const KindTable& kinds) {
  std::vector<Workload> out;
  discover_object(tree.root(), kinds, {}, out, true);
  return out;
}

std::vector<Workload> discover_item(const yaml::Tree& item, const KindTable& kinds,
                                    yaml::Path path) {
  std::vector<Workload> out;
  discover_object(item.root(), kinds, std::move(path), out, false);
  return out;
}

bool is_object(const yaml::Tree& tree) {
  NodeRef root = tree.root().resolved();
  return root.is_mapping() && !string_at(root, "apiVersion").empty() &&
         !string_at(root, "kind").empty();
}

}  // namespace archfit::manifest
