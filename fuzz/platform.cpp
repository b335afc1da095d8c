// Platforms and platform lists: parsing, and that the printed form parses to
// the same value.
#include <string>

#include <archfit/image/platform.hpp>
#include <archfit/image/platform_set.hpp>

#include "fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace archfit;
  std::string_view text = fuzz::text_of(data, size);
  fuzz::expect_clean([&] {
    if (std::optional<image::Platform> p = image::Platform::try_parse(text)) {
      if (image::Platform::parse(p->str()).str() != p->str()) {
        fuzz::bug("a platform's printed form does not parse to itself");
      }
    }
  });
  fuzz::expect_clean([&] {
    image::PlatformSet set = image::PlatformSet::parse(text);
    if (image::PlatformSet::parse(set.str()).str() != set.str()) {
      fuzz::bug("a platform list's printed form does not parse to itself");
    }
  });
  return 0;
}
