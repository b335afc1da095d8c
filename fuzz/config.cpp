// The configuration file reader.
#include "cli/config_loader.hpp"
#include "fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace archfit;
  std::string_view text = fuzz::text_of(data, size);
  fuzz::expect_clean([&] { (void)cli::parse_config(text, ".archfit.yaml"); });
  return 0;
}
