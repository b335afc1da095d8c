#include <array>
#include <cstdint>

#include <archfit/base/base64.hpp>

namespace archfit {

namespace {

constexpr std::string_view kAlphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

constexpr std::int8_t kInvalid = -1;
constexpr std::int8_t kPad = -2;
constexpr std::int8_t kBlank = -3;

constexpr std::array<std::int8_t, 256> make_table() {
  std::array<std::int8_t, 256> table{};
  for (auto& v : table)
    v = kInvalid;
  for (std::size_t i = 0; i < kAlphabet.size(); ++i)
    table[static_cast<unsigned char>(kAlphabet[i])] = static_cast<std::int8_t>(i);
  table['='] = kPad;
  for (unsigned char c : {' ', '\t', '\r', '\n'})
    table[c] = kBlank;
  return table;
}

constexpr std::array<std::int8_t, 256> kTable = make_table();

}  // namespace

std::optional<std::string> base64_decode(std::string_view text) {
  std::string out;
  out.reserve(text.size() / 4 * 3);
  std::uint32_t group = 0;  // up to four 6-bit digits
  int digits = 0;           // digits in `group`
  int pads = 0;             // '=' seen; only more '=' and blanks may follow
  for (unsigned char c : text) {
    std::int8_t v = kTable[c];
    if (v == kBlank) continue;
    if (v == kInvalid) return std::nullopt;
    if (v == kPad) {
      // "xx==" and "xxx=" are the only padded groups.
      if (digits + pads < 2 || digits + pads >= 4) return std::nullopt;
      ++pads;
      continue;
    }
    if (pads > 0) return std::nullopt;
    group = (group << 6) | static_cast<std::uint32_t>(v);
    if (++digits == 4) {
      out += static_cast<char>((group >> 16) & 0xff);
      out += static_cast<char>((group >> 8) & 0xff);
      out += static_cast<char>(group & 0xff);
      group = 0;
      digits = 0;
    }
  }
  if (pads == 0) return digits == 0 ? std::optional<std::string>(std::move(out)) : std::nullopt;
  if (digits + pads != 4) return std::nullopt;
  // Trailing bits beyond the last whole byte are ignored, as Go's
  // base64.StdEncoding (which kubectl and docker use) ignores them.
  if (digits == 2) {
    out += static_cast<char>((group >> 4) & 0xff);
  } else {
    out += static_cast<char>((group >> 10) & 0xff);
    out += static_cast<char>((group >> 2) & 0xff);
  }
  return out;
}

std::string base64_encode(std::string_view data) {
  std::string out;
  out.reserve((data.size() + 2) / 3 * 4);
  std::size_t i = 0;
  auto byte = [&](std::size_t k) {
    return static_cast<std::uint32_t>(static_cast<unsigned char>(data[k]));
  };
  for (; i + 3 <= data.size(); i += 3) {
    std::uint32_t group = (byte(i) << 16) | (byte(i + 1) << 8) | byte(i + 2);
    out += kAlphabet[(group >> 18) & 63];
    out += kAlphabet[(group >> 12) & 63];
    out += kAlphabet[(group >> 6) & 63];
    out += kAlphabet[group & 63];
  }
  std::size_t rest = data.size() - i;
  if (rest == 1) {
    std::uint32_t group = byte(i) << 16;
    out += kAlphabet[(group >> 18) & 63];
    out += kAlphabet[(group >> 12) & 63];
    out += "==";
  } else if (rest == 2) {
    std::uint32_t group = (byte(i) << 16) | (byte(i + 1) << 8);
    out += kAlphabet[(group >> 18) & 63];
    out += kAlphabet[(group >> 12) & 63];
    out += kAlphabet[(group >> 6) & 63];
    out += '=';
  }
  return out;
}

}  // namespace archfit
