// Registry documents: manifests and indexes under each content type, image
// config blobs, and OCI error bodies.
#include <archfit/registry/protocol/error.hpp>
#include <archfit/registry/protocol/manifest.hpp>

#include "fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace archfit;
  std::string_view body = fuzz::text_of(data, size);
  for (std::string_view type : {std::string_view(), registry::media_type::kOciIndex,
                                registry::media_type::kDockerManifest}) {
    fuzz::expect_clean([&] { (void)registry::parse_manifest(body, type, "fuzz/image:1"); });
  }
  fuzz::expect_clean([&] { (void)registry::parse_config_platform(body, "fuzz/image:1"); });
  fuzz::expect_clean([&] { (void)registry::parse_oci_errors(body); });
  return 0;
}
