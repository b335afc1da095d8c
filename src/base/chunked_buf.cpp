#include <archfit/base/chunked_buf.hpp>

namespace archfit {

void ChunkedBuf::drain() {
  std::string_view data(pbase(), static_cast<std::size_t>(pptr() - pbase()));
  setp(chunk_.data(), chunk_.data() + kChunk);
  if (!data.empty()) take(data);
}

ChunkedBuf::int_type ChunkedBuf::overflow(int_type c) {
  drain();
  if (!traits_type::eq_int_type(c, traits_type::eof())) {
    *pptr() = traits_type::to_char_type(c);
    pbump(1);
  }
  return traits_type::not_eof(c);
}

}  // namespace archfit
