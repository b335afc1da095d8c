// Reading what a registry serves: image indexes (OCI index, Docker manifest
// list), image manifests (OCI, Docker v2 schema 2), schema 1 (recognized to be
// refused) and image config blobs. Only what platform resolution needs is kept.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <archfit/image/platform.hpp>

namespace archfit::registry {

namespace media_type {
inline constexpr std::string_view kOciIndex = "application/vnd.oci.image.index.v1+json";
inline constexpr std::string_view kDockerList =
    "application/vnd.docker.distribution.manifest.list.v2+json";
inline constexpr std::string_view kOciManifest = "application/vnd.oci.image.manifest.v1+json";
inline constexpr std::string_view kDockerManifest =
    "application/vnd.docker.distribution.manifest.v2+json";
inline constexpr std::string_view kDockerSchema1 =
    "application/vnd.docker.distribution.manifest.v1+json";
inline constexpr std::string_view kDockerSchema1Signed =
    "application/vnd.docker.distribution.manifest.v1+prettyjws";
inline constexpr std::string_view kOciConfig = "application/vnd.oci.image.config.v1+json";
inline constexpr std::string_view kDockerConfig = "application/vnd.docker.container.image.v1+json";
}  // namespace media_type

// The Accept header for manifest requests: indexes first (without them Docker
// Hub answers with one platform's manifest).
std::string_view manifest_accept();

bool is_index_type(std::string_view media_type);
bool is_manifest_type(std::string_view media_type);
bool is_schema1_type(std::string_view media_type);

struct Descriptor {
  std::string media_type;
  std::string digest;
  std::int64_t size = 0;
  std::optional<image::Platform> platform;  // index entries only, when given
  bool attestation = false;  // vnd.docker.reference.type: attestation-manifest, or unknown/unknown
};

struct Manifest {
  enum class Kind { Index, Image, Schema1 };
  Kind kind = Kind::Image;
  std::string media_type;           // from the body, else Content-Type, else guessed
  std::vector<Descriptor> entries;  // Index
  Descriptor config;                // Image
};

// Throws Error(Resolution) naming `what` (e.g. the image) for invalid JSON or
// a document that is neither an index nor a manifest. `content_type` may
// carry parameters; they are ignored.
Manifest parse_manifest(std::string_view body, std::string_view content_type,
                        const std::string& what);

// os, architecture, variant and os.version of an image config blob.
image::Platform parse_config_platform(std::string_view body, const std::string& what);

}  // namespace archfit::registry
