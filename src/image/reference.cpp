#include <algorithm>
#include <utility>

#include <archfit/base/error.hpp>
#include <archfit/base/text.hpp>
#include <archfit/image/reference.hpp>

#include "image/reference_grammar.hpp"

namespace archfit::image {

namespace {

constexpr std::string_view kDockerHub = "docker.io";
constexpr std::string_view kDockerHubLegacy = "index.docker.io";
constexpr std::string_view kDockerHubApi = "registry-1.docker.io";
constexpr std::string_view kOfficialPrefix = "library/";
constexpr std::string_view kDefaultTag = "latest";

bool has_upper(std::string_view text) {
  return std::any_of(text.begin(), text.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
}

// Docker's rule for telling "host/repo" from "user/repo": only something that cannot be a
// Docker Hub namespace is a host. '[' is added so that a broken IPv6 literal is reported
// as a bad host rather than a bad path component.
bool names_a_registry(std::string_view first) {
  return first == "localhost" || first.find_first_of(".:[") != std::string_view::npos ||
         has_upper(first);
}

// Checks that say more than "bad character": what people actually paste into image fields.
Broken check_surface(std::string_view text) {
  if (text.empty()) return "reference is empty";
  if (text.find_first_of("${}<>") != std::string_view::npos) {
    return std::string(
        "looks like an unrendered template placeholder; render the manifest first "
        "(helm template, kustomize build, envsubst)");
  }
  if (is_space(text.front()) || is_space(text.back())) {
    return "has leading or trailing whitespace";
  }
  if (auto scheme = text.find("://"); scheme != std::string_view::npos) {
    return "must not include a URL scheme (" + quoted(text.substr(0, scheme + 3)) +
           "); write the registry host without it: " + quoted(text.substr(scheme + 3));
  }
  if (auto bad = std::find_if(text.begin(), text.end(),
                              [](char c) {
                                auto byte = static_cast<unsigned char>(c);
                                return is_space(c) || byte < 0x20 || byte == 0x7f;
                              });
      bad != text.end()) {
    return "must not contain whitespace or control characters";
  }
  if (is_image_id(text)) {
    return "is an image ID, not a reference; name the repository too (repo@sha256:<id>)";
  }
  return std::nullopt;
}

struct Parts {
  std::string registry;
  std::string repository;
  std::string tag;
  std::string digest;
};

// Splits off digest and tag, finds the registry and normalizes. Returns the broken rule.
Broken split_and_normalize(std::string_view text, Parts& out) {
  if (auto broken = check_surface(text)) return broken;

  std::string_view name = text;
  if (auto at = name.find('@'); at != std::string_view::npos) {
    std::string_view digest = name.substr(at + 1);
    if (auto broken = check_digest(digest)) return broken;
    out.digest = std::string(digest);
    name = name.substr(0, at);
  }

  // A ':' after the last '/' starts the tag; one before it belongs to a registry port.
  std::size_t last_slash = name.rfind('/');
  std::size_t colon = name.rfind(':');
  if (colon != std::string_view::npos &&
      (last_slash == std::string_view::npos || colon > last_slash)) {
    if (last_slash == std::string_view::npos && !name.empty() && name.front() == '[') {
      return "registry " + quoted(name) + " must be followed by a repository path";
    }
    std::string_view tag = name.substr(colon + 1);
    if (auto broken = check_tag(tag)) return broken;
    out.tag = std::string(tag);
    name = name.substr(0, colon);
  }
  if (name.empty()) return "image name is empty";

  std::string_view path = name;
  std::string registry(kDockerHub);
  if (auto slash = name.find('/'); slash != std::string_view::npos) {
    std::string_view first = name.substr(0, slash);
    if (names_a_registry(first)) {
      if (auto broken = check_registry(first)) return broken;
      registry = first == kDockerHubLegacy ? std::string(kDockerHub) : std::string(first);
      path = name.substr(slash + 1);
    }
  }
  if (path.empty()) return "repository path is empty";

  std::string repository;
  if (registry == kDockerHub && path.find('/') == std::string_view::npos) {
    repository = std::string(kOfficialPrefix);
  }
  repository += path;
  if (auto broken = check_path(repository)) return broken;

  out.registry = std::move(registry);
  out.repository = std::move(repository);
  return std::nullopt;
}

std::string message_for(std::string_view text, const std::string& rule) {
  return "invalid image reference " + quoted(text) + ": " + rule;
}

}  // namespace

std::optional<Reference> Reference::try_parse(std::string_view text, std::string* why) {
  Parts parts;
  if (auto broken = split_and_normalize(text, parts)) {
    if (why) *why = message_for(text, *broken);
    return std::nullopt;
  }
  Reference ref;
  ref.original_ = std::string(text);
  ref.registry_ = std::move(parts.registry);
  ref.repository_ = std::move(parts.repository);
  ref.tag_ = std::move(parts.tag);
  ref.digest_ = std::move(parts.digest);
  ref.canonical_ = ref.name();
  if (!ref.tag_.empty()) {
    ref.canonical_ += ':' + ref.tag_;
  } else if (ref.digest_.empty()) {
    ref.canonical_ += ':' + std::string(kDefaultTag);
  }
  if (!ref.digest_.empty()) ref.canonical_ += '@' + ref.digest_;
  return ref;
}

Reference Reference::parse(std::string_view text) {
  std::string why;
  auto ref = try_parse(text, &why);
  if (!ref) fail(ErrorKind::Input, std::move(why));
  return std::move(*ref);
}

std::string Reference::name() const {
  return registry_ + '/' + repository_;
}

std::string Reference::familiar() const {
  std::string out;
  if (is_docker_hub()) {
    std::string_view repo = repository_;
    if (repo.starts_with(kOfficialPrefix) &&
        repo.find('/', kOfficialPrefix.size()) == std::string_view::npos) {
      repo.remove_prefix(kOfficialPrefix.size());
    }
    out = std::string(repo);
  } else {
    out = name();
  }
  if (!tag_.empty()) out += ':' + tag_;
  if (!digest_.empty()) out += '@' + digest_;
  return out;
}

bool Reference::is_docker_hub() const {
  return registry_ == kDockerHub;
}

std::string Reference::api_host() const {
  return is_docker_hub() ? std::string(kDockerHubApi) : registry_;
}

std::string Reference::pull_ref() const {
  if (!digest_.empty()) return digest_;
  if (!tag_.empty()) return tag_;
  return std::string(kDefaultTag);
}

}  // namespace archfit::image
