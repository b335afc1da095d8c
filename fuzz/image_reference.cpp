// Image references: parsing, and that the canonical form parses to itself.
#include <string>

#include <archfit/image/reference.hpp>

#include "fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace archfit;
  std::string_view text = fuzz::text_of(data, size);
  fuzz::expect_clean([&] {
    std::string why;
    std::optional<image::Reference> ref = image::Reference::try_parse(text, &why);
    if (!ref) {
      if (why.empty()) fuzz::bug("a reference was refused without a reason");
      return;
    }
    std::optional<image::Reference> again = image::Reference::try_parse(ref->canonical());
    if (!again || again->canonical() != ref->canonical()) {
      fuzz::bug("the canonical form of a reference does not parse to itself");
    }
  });
  return 0;
}
