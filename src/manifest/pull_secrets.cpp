#include <optional>

#include <archfit/base/base64.hpp>
#include <archfit/base/error.hpp>
#include <archfit/manifest/pull_secrets.hpp>

namespace archfit::manifest {

namespace {

using yaml::NodeRef;

std::string string_at(NodeRef mapping, std::string_view key) {
  NodeRef value = mapping.resolved().get(key).resolved();
  return value.is_scalar() ? std::string(value.scalar()) : std::string();
}

// The Secret's config JSON: stringData wins over data, as the API server
// writes stringData over data. nullopt when neither holds the key.
std::optional<std::string> config_json(NodeRef secret, std::string_view key,
                                       const std::string& name) {
  NodeRef string_value = secret.get("stringData").resolved().get(key).resolved();
  if (string_value.is_scalar() && !string_value.is_null())
    return std::string(string_value.scalar());
  NodeRef data_value = secret.get("data").resolved().get(key).resolved();
  if (!data_value.is_scalar() || data_value.is_null()) return std::nullopt;
  std::optional<std::string> decoded = base64_decode(data_value.scalar());
  if (!decoded) {
    // The value is a secret: say where it is, never what it is.
    yaml::fail_at(
        data_value,
        "Secret " + name + ": data[\"" + std::string(key) +
            "\"] is not valid base64; Secret data values are base64 (or use stringData for "
            "plain text)");
  }
  return decoded;
}

void find_in(NodeRef object, bool allow_list, std::vector<PullSecret>& out) {
  object = object.resolved();
  if (!object.is_mapping()) return;
  std::string kind = string_at(object, "kind");
  if (allow_list && kind.size() >= 4 && kind.ends_with("List")) {
    NodeRef items = object.get("items").resolved();
    for (std::size_t i = 0; items.is_sequence() && i < items.size(); ++i)
      find_in(items.item(i), false, out);
    return;
  }
  if (kind != "Secret" || string_at(object, "apiVersion") != "v1") return;
  std::string type = string_at(object, "type");
  bool legacy = type == "kubernetes.io/dockercfg";
  if (!legacy && type != "kubernetes.io/dockerconfigjson") return;
  PullSecret secret;
  NodeRef metadata = object.get("metadata").resolved();
  secret.namespace_name = string_at(metadata, "namespace");
  secret.name = string_at(metadata, "name");
  secret.legacy = legacy;
  secret.line = object.line();
  secret.column = object.column();
  std::string shown =
      secret.namespace_name.empty() ? secret.name : secret.namespace_name + '/' + secret.name;
  std::optional<std::string> json =
      config_json(object, legacy ? ".dockercfg" : ".dockerconfigjson", shown);
  if (!json) return;
  secret.config_json = std::move(*json);
  out.push_back(std::move(secret));
}

}  // namespace

std::vector<PullSecret> find_pull_secrets(const yaml::Tree& tree) {
  std::vector<PullSecret> out;
  find_in(tree.root(), true, out);
  return out;
}

}  // namespace archfit::manifest
