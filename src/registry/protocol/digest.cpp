#include <algorithm>
#include <memory>

#include <openssl/evp.h>

#include <archfit/base/error.hpp>
#include <archfit/base/text.hpp>
#include <archfit/registry/protocol/digest.hpp>

namespace archfit::registry {

namespace {

std::string hex_digest(const EVP_MD* md, std::string_view data) {
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (!ctx || EVP_DigestInit_ex(ctx.get(), md, nullptr) != 1 ||
      EVP_DigestUpdate(ctx.get(), data.data(), data.size()) != 1 ||
      EVP_DigestFinal_ex(ctx.get(), out, &length) != 1) {
    fail(ErrorKind::Internal, "OpenSSL could not compute a digest");
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(length * 2);
  for (unsigned int i = 0; i < length; ++i) {
    hex += kHex[out[i] >> 4];
    hex += kHex[out[i] & 0xf];
  }
  return hex;
}

}  // namespace

std::string sha256_digest(std::string_view data) {
  return "sha256:" + hex_digest(EVP_sha256(), data);
}

bool is_checkable_digest(std::string_view digest) {
  std::size_t length = digest.starts_with("sha256:") ? 64 : digest.starts_with("sha512:") ? 128 : 0;
  std::string_view hex = digest.substr(std::min<std::size_t>(7, digest.size()));
  return length != 0 && hex.size() == length &&
         hex.find_first_not_of("0123456789abcdef") == std::string_view::npos;
}

bool digest_matches(std::string_view digest, std::string_view data) {
  std::size_t colon = digest.find(':');
  std::string_view algorithm = digest.substr(0, colon);
  std::string_view hex = colon == std::string_view::npos ? "" : digest.substr(colon + 1);
  if (algorithm == "sha256") return hex == hex_digest(EVP_sha256(), data);
  if (algorithm == "sha512") return hex == hex_digest(EVP_sha512(), data);
  fail(ErrorKind::Resolution, "cannot verify digest " + quoted(digest) +
                                  ": archfit checks sha256 and sha512 digests only");
}

}  // namespace archfit::registry
