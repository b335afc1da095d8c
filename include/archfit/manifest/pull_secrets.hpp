// Image pull secrets in the input stream: Secrets of type
// kubernetes.io/dockerconfigjson (key .dockerconfigjson) or kubernetes.io/dockercfg
// (key .dockercfg), as objects or List items. Pod templates name them in
// spec.imagePullSecrets; the resolver uses them for those templates' images
// in the same namespace (registry/credentials/pull_secrets.hpp does the matching).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <archfit/yaml/node.hpp>

namespace archfit::manifest {

struct PullSecret {
  std::string namespace_name;  // metadata.namespace, "" when not set
  std::string name;            // metadata.name
  bool legacy = false;         // kubernetes.io/dockercfg
  std::string config_json;     // decoded from base64 `data` or taken from `stringData`
  std::uint32_t line = 0;      // of the Secret object, for messages
  std::uint32_t column = 0;
};

// The pull secrets of one parsed document. Other Secrets and objects are
// ignored. Throws Error(Input) located at the value for a data value that is
// not valid base64 (the value itself is never quoted).
std::vector<PullSecret> find_pull_secrets(const yaml::Tree& tree);

}  // namespace archfit::manifest
