// Gathering what a run must resolve: each image with the shortest tag TTL of
// its uses and the pull secrets of the templates that use it, matched like
// kubelet (same namespace, listed in imagePullSecrets).
#pragma once

#include <chrono>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <archfit/manifest/pull_secrets.hpp>
#include <archfit/manifest/workload.hpp>
#include <archfit/registry/credentials/pull_secrets.hpp>
#include <archfit/resolve/resolver.hpp>
#include <archfit/yaml/node.hpp>

namespace archfit::run {

// The tag TTL for an imagePullPolicy ("" and unknown policies use "default").
std::chrono::seconds tag_ttl(const resolve::Settings& settings, std::string_view pull_policy);

class WantCollector {
 public:
  explicit WantCollector(const resolve::Settings& settings) : settings_(settings) {}

  // Remembers the pull secrets of a document.
  void add_secrets(const yaml::Tree& tree, const std::string& file);
  void add_secrets(const std::vector<manifest::PullSecret>& found, const std::string& file);
  // Every image of the template that archfit would resolve.
  void add_template(const manifest::PodTemplate& t);
  // One image use of a template.
  void add_use(const manifest::PodTemplate& t, const image::Reference& ref,
               std::string_view pull_policy);

  // One image use, as add_use records it.
  struct Use {
    image::Reference ref;
    std::chrono::seconds ttl;
    std::string namespace_name;
    std::vector<std::string> secrets;
  };
  Use use_of(const manifest::PodTemplate& t, const image::Reference& ref,
             std::string_view pull_policy) const;
  // Uses of the same image by templates with the same namespace and pull
  // secrets count once: a run holds one entry per image, not per use.
  void add_use(Use use);

  bool empty() const { return images_.empty(); }
  // Forgets the images (once they are resolved); secrets and warnings stay.
  void clear();
  // One want per image, with credentials from the secrets seen by now.
  std::vector<resolve::Want> wants() const;
  // Pull secrets that could not be read ("file:line:col: ..."), for stderr.
  const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  // An image and who uses it: (namespace, listed secrets) pairs.
  struct Image {
    image::Reference ref;
    std::chrono::seconds ttl;
    std::set<std::pair<std::string, std::vector<std::string>>> users;
  };

  const resolve::Settings& settings_;
  std::vector<Image> images_;                            // in the order first used
  std::unordered_map<std::string, std::size_t> by_ref_;  // canonical -> images_ index
  // "namespace/name" -> parsed secret
  std::map<std::string, registry::PullSecretAuths> secrets_;
  std::vector<std::string> warnings_;
};

}  // namespace archfit::run
