// Image references as manifests write them ("nginx:1.25", "ghcr.io/org/app@sha256:...")
// parsed and normalized the way docker and containerd read them, so that every spelling
// of one image has one canonical name: the key of the lock file, the cache and dedup.
#pragma once

#include <compare>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace archfit::image {

// Grammar (distribution/reference): name[:tag][@digest]
//   name       [registry/]path
//   registry   host[:port]; host is a DNS name, IPv4 or a bracketed IPv6 literal (no zone)
//   path       component(/component)*, component [a-z0-9]+(([._]|__|-+)[a-z0-9]+)*,
//              at most 255 characters after normalization (including an added "library/")
//   tag        [A-Za-z0-9_][A-Za-z0-9_.-]{0,127}
//   digest     algorithm:hex; algorithm as in the OCI descriptor spec; sha256 and blake3
//              take exactly 64 lowercase hex digits, sha512 128, others at least 32 hex
//
// Normalization: the first path component names a registry only if it is "localhost",
// contains '.' or ':', or contains an uppercase letter; otherwise the registry is
// docker.io. "index.docker.io" is an alias of docker.io. On docker.io a one-component
// path gets "library/". Host names keep the case they were written in, as in docker.
//
// "registry-1.docker.io" is NOT folded into docker.io: neither distribution/reference nor
// go-containerregistry does it, and "registry-1.docker.io/nginx" is pulled by the runtime
// as the repository "nginx" on that host, not as "library/nginx". Treat it as a host of
// its own; only api_host() maps docker.io onto it.
class Reference {
 public:
  // Throws Error(ErrorKind::Input) 'invalid image reference "<text>": <rule broken>'.
  static Reference parse(std::string_view text);
  // The same without an exception; *why receives the message parse() would throw.
  static std::optional<Reference> try_parse(std::string_view text, std::string* why = nullptr);

  const std::string& registry() const { return registry_; }      // "docker.io", "[::1]:5000"
  const std::string& repository() const { return repository_; }  // "library/nginx"
  const std::string& tag() const { return tag_; }                // "" when not written
  const std::string& digest() const { return digest_; }          // "" when not written
  const std::string& original() const { return original_; }      // the text as written

  // registry/repository[:tag][@digest], ":latest" when neither tag nor digest was written.
  // The lock file key and the identity of a Reference.
  const std::string& canonical() const { return canonical_; }
  // registry/repository
  std::string name() const;
  // How docker prints it: docker.io and a lone "library/" dropped, no ":latest" added.
  std::string familiar() const;
  // The host to send registry API requests to (Docker Hub's API is not on docker.io).
  std::string api_host() const;
  bool is_docker_hub() const;

  bool has_digest() const { return !digest_.empty(); }
  // What to ask the registry for: the digest when there is one (a tag next to a digest is
  // informational, as in containerd), else the tag, else "latest".
  std::string pull_ref() const;

  friend bool operator==(const Reference& a, const Reference& b) {
    return a.canonical_ == b.canonical_;
  }
  friend std::strong_ordering operator<=>(const Reference& a, const Reference& b) {
    return a.canonical_ <=> b.canonical_;
  }

 private:
  Reference() = default;

  std::string original_;
  std::string registry_;
  std::string repository_;
  std::string tag_;
  std::string digest_;
  std::string canonical_;
};

}  // namespace archfit::image

template <>
struct std::hash<archfit::image::Reference> {
  std::size_t operator()(const archfit::image::Reference& ref) const noexcept {
    return std::hash<std::string>{}(ref.canonical());
  }
};
