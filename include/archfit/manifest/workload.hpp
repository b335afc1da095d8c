// Kubernetes objects that run pods, and the pod templates inside them.
// A workload is an object of a known kind (or an item of a List); each of its
// pod templates carries the containers whose images decide where it can run.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <archfit/image/reference.hpp>
#include <archfit/yaml/node.hpp>
#include <archfit/yaml/path.hpp>

namespace archfit::manifest {

struct Container {
  yaml::NodeRef node;  // the container's mapping
  std::string name;
  bool init = false;        // from initContainers
  yaml::NodeRef image;      // the `image` value node; null when the key is missing
  std::string image_ref;    // the image string; "" when missing or not a string
  std::string pull_policy;  // imagePullPolicy as written; "" when not set
  // image_ref parsed, once for every later use; nullopt when the `image` key
  // is missing or its value is not a valid reference (why in reference_error).
  std::optional<image::Reference> reference;
  std::string reference_error;
};

struct PodTemplate {
  // The mapping that holds the pod's `metadata` and `spec`: the object itself
  // for a Pod, `spec.template` for a Deployment, and so on.
  yaml::NodeRef node;
  yaml::NodeRef spec;          // the pod spec mapping
  yaml::Path path;             // from the object: spec.jobTemplate.spec.template; none for a Pod
  std::string namespace_name;  // the object's metadata.namespace ("" when not set)
  std::vector<std::pair<std::string, std::string>> labels;  // template metadata.labels
  std::vector<Container> containers;                        // containers, then initContainers
  std::vector<std::string> image_pull_secrets;              // spec.imagePullSecrets[].name
};

struct Workload {
  yaml::NodeRef object;
  std::string api_version;
  std::string kind;
  std::string name;
  std::string namespace_name;
  yaml::Path path;  // of the object in its document: none, or items[3] for List items
  std::vector<std::pair<std::string, std::string>> labels;  // metadata.labels
  std::vector<PodTemplate> templates;
};

}  // namespace archfit::manifest
