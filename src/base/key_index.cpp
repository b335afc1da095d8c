// SipHash-1-3 (Aumasson and Bernstein's SipHash with one compression round and
// three finalization rounds) under a key drawn from the kernel once per
// process: inputs cannot choose keys that collide.
#include <array>
#include <cstring>
#include <random>
#include <sys/random.h>

#include <archfit/base/key_index.hpp>

namespace archfit {

namespace {

struct SipKey {
  std::uint64_t k0 = 0;
  std::uint64_t k1 = 0;
};

// Not counted by a profile (no_profile_instrument_function): the training
// build's and the final build's differ here, and a profile must match.
__attribute__((no_profile_instrument_function)) SipKey draw_key() {
#ifdef ARCHFIT_FIXED_HASH_KEY
  // The executable a release is trained with (ARCHFIT_PGO=generate, never
  // shipped): the same key in every run, so that its runs take the same
  // branches and two builds of a commit are trained alike, to the byte.
  return SipKey{0x736f6d6570736575ull, 0x646f72616e646f6dull};
#endif
  std::array<std::uint64_t, 2> words{};
  std::size_t got = 0;
  auto* bytes = reinterpret_cast<unsigned char*>(words.data());
  while (got < sizeof(words)) {
    ssize_t n = getrandom(bytes + got, sizeof(words) - got, 0);
    if (n <= 0) break;
    got += static_cast<std::size_t>(n);
  }
  if (got < sizeof(words)) {
    // No getrandom (an old kernel or a seccomp filter): the C++ library's own
    // source of randomness.
    std::random_device device;
    for (std::uint64_t& w : words)
      w = (std::uint64_t{device()} << 32) ^ device();
  }
  return SipKey{words[0], words[1]};
}

__attribute__((no_profile_instrument_function)) const SipKey& process_key() {
  static const SipKey key = draw_key();
  return key;
}

constexpr std::uint64_t rotl(std::uint64_t x, int b) {
  return (x << b) | (x >> (64 - b));
}

struct SipState {
  std::uint64_t v0, v1, v2, v3;

  void round() {
    v0 += v1;
    v1 = rotl(v1, 13);
    v1 ^= v0;
    v0 = rotl(v0, 32);
    v2 += v3;
    v3 = rotl(v3, 16);
    v3 ^= v2;
    v0 += v3;
    v3 = rotl(v3, 21);
    v3 ^= v0;
    v2 += v1;
    v1 = rotl(v1, 17);
    v1 ^= v2;
    v2 = rotl(v2, 32);
  }
};

std::uint64_t load_le(const unsigned char* p) {
  std::uint64_t m = 0;
  for (int i = 7; i >= 0; --i)
    m = (m << 8) | p[i];
  return m;
}

}  // namespace

std::uint64_t siphash(std::uint64_t k0, std::uint64_t k1, std::string_view text, int c_rounds,
                      int d_rounds) {
  SipState s{k0 ^ 0x736f6d6570736575ull, k1 ^ 0x646f72616e646f6dull, k0 ^ 0x6c7967656e657261ull,
             k1 ^ 0x7465646279746573ull};
  auto absorb = [&s, c_rounds](std::uint64_t m) {
    s.v3 ^= m;
    for (int r = 0; r < c_rounds; ++r)
      s.round();
    s.v0 ^= m;
  };
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  const std::size_t whole = n - n % 8;
  for (std::size_t i = 0; i < whole; i += 8)
    absorb(load_le(p + i));
  std::uint64_t last = static_cast<std::uint64_t>(n & 0xff) << 56;
  for (std::size_t i = whole; i < n; ++i)
    last |= static_cast<std::uint64_t>(p[i]) << (8 * (i - whole));
  absorb(last);
  s.v2 ^= 0xff;
  for (int r = 0; r < d_rounds; ++r)
    s.round();
  return s.v0 ^ s.v1 ^ s.v2 ^ s.v3;
}

std::uint64_t keyed_hash(std::string_view text) {
  const SipKey& key = process_key();
  return siphash(key.k0, key.k1, text, 1, 3);
}

void KeyIndex::clear() {
  slots_.clear();
  size_ = 0;
}

}  // namespace archfit
