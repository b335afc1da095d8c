// Finding a key among many without a scan. Every collection an input can make
// large (a mapping's keys, pools, kinds, paths) is looked up by key through a
// hash whose key is drawn at random once per process (SipHash-1-3), so that no
// input, however its keys are chosen, makes a lookup cost more than a few
// comparisons (docs/architecture.md, "Scaling").
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace archfit {

// SipHash-1-3 of `text` under this process's random key.
std::uint64_t keyed_hash(std::string_view text);
// SipHash with `c_rounds` compression and `d_rounds` finalization rounds under
// the key (k0, k1), both little-endian halves of the 16-byte key: what
// keyed_hash computes, for checking it against the published vectors.
std::uint64_t siphash(std::uint64_t k0, std::uint64_t k1, std::string_view text, int c_rounds,
                      int d_rounds);

// A hasher for unordered containers of strings (transparent: a string_view
// finds a std::string).
struct KeyedHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view text) const { return keyed_hash(text); }
};

// An index of the positions 0, 1, ... of a collection that keeps its keys
// itself: put() records where a key is, find() gives it back. The collection
// is asked for a position's key (`key_at(position)`, a string_view) only to
// tell keys with the same hash apart. Positions do not move: a collection
// that takes an item out builds its index again.
class KeyIndex {
 public:
  static constexpr std::uint32_t npos = 0xffffffffu;

  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  void clear();

  // The position recorded for `key`, or npos.
  template <typename KeyAt>
  std::uint32_t find(std::string_view key, const KeyAt& key_at) const {
    if (slots_.empty()) return npos;
    const std::uint64_t h = keyed_hash(key);
    for (std::size_t i = h & mask(); slots_[i].position != kFree; i = (i + 1) & mask()) {
      const Slot& s = slots_[i];
      if (s.tag == tag_of(h) && key_at(s.position) == key) return s.position;
    }
    return npos;
  }

  // Room for `count` keys at once, so that putting them hashes none twice
  // (a large mapping's index is made in one step). Only while empty.
  void reserve(std::size_t count) {
    if (size_ != 0) return;
    std::size_t slots = 16;
    while (slots < 2 * count)
      slots *= 2;
    if (slots > slots_.size()) slots_.assign(slots, Slot{});
  }

  // Records `key` at `position`. A key recorded before keeps the later of
  // the two positions (as a mapping read twice keeps its last entry); the
  // other is returned, or npos when the key is new.
  template <typename KeyAt>
  std::uint32_t put(std::string_view key, std::uint32_t position, const KeyAt& key_at) {
    if (2 * (size_ + 1) > slots_.size()) {
      // Twice as many slots; each key is hashed again to find its place.
      std::vector<Slot> old(slots_.empty() ? 16 : 2 * slots_.size());
      old.swap(slots_);
      for (const Slot& s : old) {
        if (s.position != kFree) place(keyed_hash(key_at(s.position)), s.position);
      }
    }
    const std::uint64_t h = keyed_hash(key);
    for (std::size_t i = h & mask(); slots_[i].position != kFree; i = (i + 1) & mask()) {
      Slot& s = slots_[i];
      if (s.tag == tag_of(h) && key_at(s.position) == key) {
        const std::uint32_t earlier = s.position < position ? s.position : position;
        s.position = s.position < position ? position : s.position;
        return earlier;
      }
    }
    place(h, position);
    ++size_;
    return npos;
  }

 private:
  static constexpr std::uint32_t kFree = npos;
  struct Slot {
    std::uint32_t position = kFree;
    std::uint32_t tag = 0;  // the hash's high bits: other keys nearly always differ there
  };
  static std::uint32_t tag_of(std::uint64_t h) { return static_cast<std::uint32_t>(h >> 32); }
  std::size_t mask() const { return slots_.size() - 1; }
  // Puts a key known to be absent in the first free slot of its probe.
  void place(std::uint64_t h, std::uint32_t position) {
    std::size_t i = h & mask();
    while (slots_[i].position != kFree)
      i = (i + 1) & mask();
    slots_[i] = Slot{position, tag_of(h)};
  }

  std::vector<Slot> slots_;  // a power of two long, at most half used
  std::size_t size_ = 0;
};

}  // namespace archfit
