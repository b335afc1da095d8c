// The configuration file reader.
#include <archfit/config/loader.hpp>

#include "fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace archfit;
  std::string_view text = fuzz::text_of(data, size);
  fuzz::expect_clean([&] { (void)config::parse_config(text, ".archfit.yaml"); });
  return 0;
}
