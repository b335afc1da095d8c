// Byte offsets of libyaml's marks. Internal to the yaml module.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace archfit::yaml::detail {

// libyaml counts positions in characters; spans are bytes. For ASCII text the
// two agree; otherwise walk a cursor over the UTF-8, which stays cheap because
// marks arrive almost in order.
class OffsetMap {
 public:
  explicit OffsetMap(std::string_view text) : text_(text) {
    for (unsigned char c : text) {
      if (c >= 0x80) {
        ascii_ = false;
        break;
      }
    }
  }

  std::uint32_t byte_offset(std::size_t char_index) {
    if (ascii_) return static_cast<std::uint32_t>(char_index);
    while (char_ < char_index && byte_ < text_.size()) {
      byte_ += sequence_length(static_cast<unsigned char>(text_[byte_]));
      ++char_;
    }
    while (char_ > char_index) {
      do {
        --byte_;
      } while (byte_ > 0 && (static_cast<unsigned char>(text_[byte_]) & 0xC0) == 0x80);
      --char_;
    }
    if (byte_ > text_.size()) byte_ = text_.size();
    return static_cast<std::uint32_t>(byte_);
  }

 private:
  static std::size_t sequence_length(unsigned char lead) {
    if (lead < 0x80) return 1;
    if ((lead & 0xE0) == 0xC0) return 2;
    if ((lead & 0xF0) == 0xE0) return 3;
    if ((lead & 0xF8) == 0xF0) return 4;
    return 1;
  }

  std::string_view text_;
  bool ascii_ = true;
  std::size_t char_ = 0;
  std::size_t byte_ = 0;
};

}  // namespace archfit::yaml::detail
