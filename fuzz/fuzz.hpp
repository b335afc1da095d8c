// What every harness shares: the input as text, and the rule that an
// archfit::Error of any kind but Internal is a proper answer to bad input,
// while an internal error or any other exception is a bug (the fuzzer stops
// and keeps the input).
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string_view>

#include <archfit/base/error.hpp>

namespace archfit::fuzz {

inline std::string_view text_of(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

[[noreturn]] inline void bug(const char* what) {
  std::fprintf(stderr, "archfit fuzz: %s\n", what);
  std::abort();
}

// Runs f; input errors are fine, anything else is a bug.
template <class F>
void expect_clean(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    if (e.kind() == ErrorKind::Internal) bug(e.what());
  } catch (const std::exception& e) {
    bug(e.what());
  }
}

}  // namespace archfit::fuzz
