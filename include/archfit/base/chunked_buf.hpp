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
  void drain();

 protected:
  // One full chunk, or what drain() found. An exception thrown here would be
  // swallowed by the ostream above: keep the failure and report it later.
  virtual void take(std::string_view data) = 0;

  int_type overflow(int_type c) override;

 private:
  std::array<char, kChunk> chunk_{};
};

}  // namespace archfit
