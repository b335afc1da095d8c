#include "registry/credentials/registry_key.hpp"

#include <archfit/base/text.hpp>

namespace archfit::registry {

bool is_docker_hub(std::string_view host) {
  return host == "docker.io" || host == "index.docker.io" || host == "registry-1.docker.io";
}

RegistryKey parse_registry_key(std::string_view key) {
  key = trim(key);
  for (std::string_view scheme : {"https://", "http://"}) {
    if (starts_with_ci(key, scheme)) {
      key.remove_prefix(scheme.size());
      break;
    }
  }
  std::size_t slash = key.find('/');
  std::string_view authority = key.substr(0, slash);
  std::string_view path = slash == std::string_view::npos ? std::string_view() : key.substr(slash);
  // kubelet (and docker's ResolveAuthConfig) treat "/v1/..." and "/v2/..." as
  // the registry's root.
  if (path.starts_with("/v1/") || path.starts_with("/v2/")) path.remove_prefix(3);
  while (!path.empty() && path.front() == '/')
    path.remove_prefix(1);
  while (!path.empty() && path.back() == '/')
    path.remove_suffix(1);

  RegistryKey out;
  std::size_t colon = authority.rfind(':');
  std::size_t bracket = authority.rfind(']');
  if (colon != std::string_view::npos && (bracket == std::string_view::npos || colon > bracket)) {
    out.port = std::string(authority.substr(colon + 1));
    authority = authority.substr(0, colon);
  }
  out.host = to_lower(authority);
  if (is_docker_hub(out.host) && out.port.empty()) out.host = "docker.io";
  out.path = std::string(path);
  return out;
}

}  // namespace archfit::registry
