// The lock file reader, and that what it read writes and reads back the same.
#include <archfit/cache/lock_file.hpp>

#include "fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace archfit;
  std::string_view text = fuzz::text_of(data, size);
  fuzz::expect_clean([&] {
    cache::LockFile lock = cache::LockFile::parse(text, "archfit.lock");
    std::string written = lock.serialize();
    if (cache::LockFile::parse(written, "archfit.lock").serialize() != written) {
      fuzz::bug("a lock file archfit wrote does not read back the same");
    }
  });
  return 0;
}
