// Registry keys reduced to host, port and path: the normalization every
// credential lookup starts from.
#include "registry/credentials/registry_key.hpp"

#include <gtest/gtest.h>

namespace archfit::registry {
namespace {

TEST(RegistryKey, Normalizes) {
  struct Row {
    const char* key;
    const char* host;
    const char* port;
    const char* path;
    const char* str;
  };
  const Row rows[] = {
      {"ghcr.io", "ghcr.io", "", "", "ghcr.io"},
      {"https://ghcr.io/", "ghcr.io", "", "", "ghcr.io"},
      {"HTTP://Ghcr.IO", "ghcr.io", "", "", "ghcr.io"},
      {"https://index.docker.io/v1/", "docker.io", "", "", "docker.io"},
      {"index.docker.io", "docker.io", "", "", "docker.io"},
      {"registry-1.docker.io", "docker.io", "", "", "docker.io"},
      {"docker.io/myorg", "docker.io", "", "myorg", "docker.io/myorg"},
      {"docker.io:5000", "docker.io", "5000", "", "docker.io:5000"},
      {"localhost:5000", "localhost", "5000", "", "localhost:5000"},
      {"http://localhost:5000/v2/", "localhost", "5000", "", "localhost:5000"},
      {"quay.io/org/team/", "quay.io", "", "org/team", "quay.io/org/team"},
      {"https://quay.io/v1/org", "quay.io", "", "org", "quay.io/org"},
      {"quay.io/v1", "quay.io", "", "v1", "quay.io/v1"},
      {"[::1]:5000", "[::1]", "5000", "", "[::1]:5000"},
      {"[::1]", "[::1]", "", "", "[::1]"},
      {"*.azurecr.io", "*.azurecr.io", "", "", "*.azurecr.io"},
      {"  ghcr.io  ", "ghcr.io", "", "", "ghcr.io"},
  };
  for (const Row& row : rows) {
    RegistryKey key = parse_registry_key(row.key);
    EXPECT_EQ(key.host, row.host) << row.key;
    EXPECT_EQ(key.port, row.port) << row.key;
    EXPECT_EQ(key.path, row.path) << row.key;
    EXPECT_EQ(key.str(), row.str) << row.key;
    // Normalizing twice changes nothing.
    EXPECT_EQ(parse_registry_key(key.str()).str(), key.str()) << row.key;
  }
}

}  // namespace
}  // namespace archfit::registry
