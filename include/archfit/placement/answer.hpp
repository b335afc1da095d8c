// What placement knows of one image: where it runs, and whether that is a
// fact or an assumption. `run` builds these from resolve's answers (applying
// resolve.fallbackPlatforms); placement never sees how an image was looked up.
#pragma once

#include <functional>
#include <string_view>

#include <archfit/image/platform_set.hpp>
#include <archfit/image/reference.hpp>

namespace archfit::placement {

// A view: the pointers and strings live as long as whoever answered (a
// resolver, a configuration) and are read only while one template is planned.
struct ImageAnswer {
  // Where the image runs; nullptr when that is not known.
  const image::PlatformSet* platforms = nullptr;
  // `platforms` are resolve.fallbackPlatforms, assumed for an image that could
  // not be resolved (`why` says why not).
  bool assumed = false;
  // The digest the tag pointed to, when known ("" otherwise).
  std::string_view digest;
  // Why the image could not be resolved, without the image's name; "" when it was.
  std::string_view why;

  bool known() const { return platforms != nullptr && !assumed; }
};

// Answers for the images of the template being planned.
using Lookup = std::function<ImageAnswer(const image::Reference&)>;

}  // namespace archfit::placement
