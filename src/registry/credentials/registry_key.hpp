// Registry keys as credential files write them ("https://index.docker.io/v1/",
// "ghcr.io", "http://localhost:5000/", "quay.io/org", "*.azurecr.io") reduced
// to host, port and path, so that every spelling of one registry compares
// equal. Matching policies (docker's by host, kubelet's with globs and path
// prefixes) are built on top of this; this file only normalizes.
#pragma once

#include <string>
#include <string_view>

namespace archfit::registry {

struct RegistryKey {
  std::string host;  // lower case; Docker Hub's names folded into "docker.io"
  std::string port;  // "" when not written
  std::string path;  // without leading "/v1/" or "/v2/" and surrounding '/': "org/team"

  // host[:port] — the registry as image references name it.
  std::string registry() const { return port.empty() ? host : host + ':' + port; }
  // host[:port][/path], the form kubelet orders keys by.
  std::string str() const { return path.empty() ? registry() : registry() + '/' + path; }
};

// Drops a scheme ("https://", "http://"), the API version prefix of the path
// and slashes around it; splits off the port (a bracketed IPv6 host keeps its
// brackets). Docker Hub's names — "index.docker.io", "registry-1.docker.io",
// "docker.io" — all become "docker.io".
RegistryKey parse_registry_key(std::string_view key);

bool is_docker_hub(std::string_view host);

// The server URL credential helpers store Docker Hub's credentials under.
inline constexpr std::string_view kDockerHubServerUrl = "https://index.docker.io/v1/";

}  // namespace archfit::registry
