// What resolving one image found: its platforms (and digest) and where the
// answer came from, or why there is none. The data placement reads; it knows
// nothing of how the answer was found (no registry, no cache types).
#pragma once

#include <string>
#include <string_view>

#include <archfit/image/platform_set.hpp>
#include <archfit/image/reference.hpp>

namespace archfit::resolve {

enum class Source { Lock, Cache, Registry };

std::string_view source_name(Source s);  // "lock" | "cache" | "registry"

struct Resolution {
  bool ok = false;
  image::PlatformSet platforms;
  std::string digest;  // "" when the source does not know it
  Source source = Source::Lock;
  // When !ok: why, naming the image and where archfit looked, e.g.
  // "docker.io/library/nginx:1.25 is not in the lock file examples/archfit.lock".
  std::string error;

  // `error` without a leading "<canonical reference>: ", for messages that
  // name the image already.
  std::string_view cause(const image::Reference& ref) const {
    std::string_view out = error;
    const std::string& name = ref.canonical();
    if (out.size() > name.size() + 2 && out.starts_with(name) &&
        out.substr(name.size(), 2) == ": ") {
      out.remove_prefix(name.size() + 2);
    }
    return out;
  }
};

}  // namespace archfit::resolve
