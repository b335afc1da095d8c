// WWW-Authenticate challenges: each line of the input is one header value.
#include <string_view>
#include <vector>

#include <archfit/registry/protocol/challenge.hpp>

#include "fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace archfit;
  std::string_view text = fuzz::text_of(data, size);
  std::vector<std::string_view> headers;
  for (std::size_t start = 0; start <= text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    headers.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  fuzz::expect_clean([&] {
    for (const registry::Challenge& c : registry::parse_challenges(headers)) {
      (void)c.param("realm");
      (void)c.param("service");
    }
  });
  return 0;
}
