#include <algorithm>
#include <charconv>
#include <optional>
#include <string>
#include <thread>

#include <archfit/base/error.hpp>
#include <archfit/base/text.hpp>
#include <archfit/base/threads.hpp>

namespace archfit {

unsigned cores(const Getenv& getenv) {
  const unsigned machine = std::max(1u, std::thread::hardware_concurrency());
  const std::optional<std::string> limit = getenv("ARCHFIT_THREADS");
  if (!limit) return machine;
  constexpr unsigned kMost = 4096;
  unsigned n = 0;
  const char* end = limit->data() + limit->size();
  auto [at, ec] = std::from_chars(limit->data(), end, n);
  if (ec != std::errc() || at != end || n < 1 || n > kMost) {
    fail(ErrorKind::Usage, "ARCHFIT_THREADS is " + quoted(*limit) +
                               ": give a whole number of threads from 1 to " +
                               std::to_string(kMost) + ", or unset it for one per CPU");
  }
  return std::min(machine, n);
}

}  // namespace archfit
