// The buffer under archfit's output streams: what is written is gathered in
// a chunk of 64 KiB and handed on a chunk at a time, never a byte at a time.
#pragma once

#include <array>
#include <cstddef>
#include <streambuf>
#include <string_view>

namespace archfit {

class ChunkedBuf : public std::streambuf {
 public:
  static constexpr std::size_t kChunk = 64 * 1024;

  ChunkedBuf() { setp(chunk_.data(), chunk_.data() + kChunk); }
  ChunkedBuf(const ChunkedBuf&) = delete;
  ChunkedBuf& operator=(const ChunkedBuf&) = delete;

  // Hands on what the chunk holds so far.
  void drain() {
    std::string_view data(pbase(), static_cast<std::size_t>(pptr() - pbase()));
    setp(chunk_.data(), chunk_.data() + kChunk);
    if (!data.empty()) take(data);
  }

 protected:
  // One full chunk, or what drain() found. An exception thrown here would be
  // swallowed by the ostream above: keep the failure and report it later.
  virtual void take(std::string_view data) = 0;

  int_type overflow(int_type c) override {
    drain();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }

 private:
  std::array<char, kChunk> chunk_{};
};

}  // namespace archfit
