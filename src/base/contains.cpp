// contains(): one needle over a whole input (tens of MiB before any document
// is read). Sixteen starting positions at a time are tested on two of the
// needle's bytes, its least common in manifests; only where both match does
// the whole needle get compared, which in a manifest is rare. The vectors are
// the compiler's own (SSE2 on x86-64, NEON on arm64). A text of many MiB is
// scanned in pieces on a few cores: the scans run before any document is
// read, while the other cores wait.
#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <utility>

#include <archfit/base/parallel_for.hpp>
#include <archfit/base/text.hpp>
#include <archfit/base/threads.hpp>

namespace archfit {

namespace {

using Lanes = unsigned char __attribute__((vector_size(16)));
constexpr std::size_t kLanes = sizeof(Lanes);

// How common a byte is in YAML manifests, roughly: lower is rarer.
constexpr std::array<unsigned char, 256> kCommonness = [] {
  std::array<unsigned char, 256> rank{};
  for (int c = 0x20; c < 0x7f; ++c)
    rank[static_cast<std::size_t>(c)] = 2;  // punctuation
  for (int c = 'A'; c <= 'Z'; ++c)
    rank[static_cast<std::size_t>(c)] = 1;
  for (int c = '0'; c <= '9'; ++c)
    rank[static_cast<std::size_t>(c)] = 3;
  for (int c = 'a'; c <= 'z'; ++c)
    rank[static_cast<std::size_t>(c)] = 6;
  for (unsigned char c : std::string_view("bfgjkqvwxyz"))
    rank[c] = 4;
  for (unsigned char c : std::string_view("./_"))
    rank[c] = 5;
  for (unsigned char c : std::string_view(" \n\t-:\""))
    rank[c] = 7;
  return rank;
}();

Lanes load(const char* p) {
  Lanes v;
  std::memcpy(&v, p, kLanes);
  return v;
}

bool any(Lanes v) {
  std::uint64_t half[2];
  std::memcpy(half, &v, kLanes);
  return (half[0] | half[1]) != 0;
}

// The positions of the needle's two least common bytes, first one first.
std::pair<std::size_t, std::size_t> rarest_pair(std::string_view needle) {
  auto rank = [&needle](std::size_t i) {
    return kCommonness[static_cast<unsigned char>(needle[i])];
  };
  std::size_t a = 0;
  for (std::size_t i = 1; i < needle.size(); ++i)
    if (rank(i) < rank(a)) a = i;
  std::size_t b = a == 0 ? 1 : 0;
  for (std::size_t i = 0; i < needle.size(); ++i)
    if (i != a && rank(i) < rank(b)) b = i;
  return a < b ? std::pair{a, b} : std::pair{b, a};
}

// Whether the needle starts at one of the sixteen places from `at` whose two
// bytes matched: out of the scan's loop, which it would crowd, as it is rare.
[[gnu::noinline]] bool starts_at_one_of(const char* at, Lanes matched, std::string_view needle) {
  unsigned char lane[kLanes];
  std::memcpy(lane, &matched, kLanes);
  for (std::size_t k = 0; k < kLanes; ++k)
    if (lane[k] != 0 && std::memcmp(at + k, needle.data(), needle.size()) == 0) return true;
  return false;
}

// One thread's scan.
bool scan(std::string_view text, std::string_view needle) {
  const std::size_t m = needle.size();
  if (m == 0) return true;
  if (text.size() < m) return false;
  if (m == 1) return std::memchr(text.data(), needle[0], text.size()) != nullptr;
  const std::pair<std::size_t, std::size_t> pair = rarest_pair(needle);
  const std::size_t p = pair.first;
  const std::size_t q = pair.second;
  const Lanes at_p = Lanes{} + static_cast<unsigned char>(needle[p]);
  const Lanes at_q = Lanes{} + static_cast<unsigned char>(needle[q]);
  const char* t = text.data();
  const std::size_t starts = text.size() - m + 1;  // where the needle may begin
  // Every byte loaded lies in the text: a block's last start is below
  // `starts`, and q < m.
  auto block_at = [&](std::size_t i) {
    const auto matched = (load(t + i + p) == at_p) & (load(t + i + q) == at_q);
    const Lanes lanes = reinterpret_cast<const Lanes&>(matched);
    return any(lanes) && starts_at_one_of(t + i, lanes, needle);
  };
  if (starts < kLanes) {
    for (std::size_t i = 0; i < starts; ++i)
      if (t[i] == needle[0] && std::memcmp(t + i, needle.data(), m) == 0) return true;
    return false;
  }
  for (std::size_t i = 0; i + kLanes <= starts; i += kLanes)
    if (block_at(i)) return true;
  // The last block ends at the last start, over starts seen before.
  if (starts % kLanes != 0 && block_at(starts - kLanes)) return true;
  return false;
}

// Texts from this size are scanned on several threads, in pieces of kPiece
// starting places (each piece's text runs on by the needle's length less
// one, so that a needle across a boundary is seen by the piece it starts in).
constexpr std::size_t kSplitFrom = std::size_t{8} << 20;
constexpr std::size_t kPiece = std::size_t{1} << 20;
// A few threads scan tens of MiB in a millisecond or two; more would take
// longer to start than to scan.
constexpr unsigned kMostThreads = 4;

}  // namespace

bool contains(std::string_view text, std::string_view needle) {
  if (text.size() < kSplitFrom || needle.size() > kPiece) return scan(text, needle);
  const unsigned threads = std::min(cores(), kMostThreads);
  if (threads < 2) return scan(text, needle);
  const std::size_t starts = text.size() - needle.size() + 1;
  const std::size_t pieces = (starts + kPiece - 1) / kPiece;
  std::atomic<bool> found{false};
  parallel_for(pieces, threads, [&](std::size_t i) {
    if (found.load(std::memory_order_relaxed)) return;
    const std::size_t begin = i * kPiece;
    const std::size_t end = std::min(begin + kPiece, starts) + needle.size() - 1;
    if (scan(text.substr(begin, end - begin), needle)) found.store(true, std::memory_order_relaxed);
  });
  return found.load(std::memory_order_relaxed);
}

}  // namespace archfit
