#include "cache/sha256.hpp"

#include <openssl/evp.h>

#include <archfit/base/error.hpp>

namespace archfit::cache {

std::string sha256_hex(std::string_view data) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  // The one-shot call manages its own context; nothing to free on failure.
  if (EVP_Digest(data.data(), data.size(), md, &size, EVP_sha256(), nullptr) != 1 || size != 32) {
    fail(ErrorKind::Internal, "OpenSSL could not compute a SHA-256 digest");
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * size);
  for (unsigned int i = 0; i < size; ++i) {
    out.push_back(kHex[md[i] >> 4]);
    out.push_back(kHex[md[i] & 0xf]);
  }
  return out;
}

}  // namespace archfit::cache
