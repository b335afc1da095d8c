// A platform an image is built for or a node runs, os/arch[/variant], always held in the
// spelling containerd normalizes to (aarch64 -> arm64, armhf -> arm/v7, x86_64 -> amd64),
// so that two spellings of one platform compare equal. Matching lives in match.hpp.
#pragma once

#include <compare>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace archfit::image {

// Syntax accepted by parse():
//   os/arch[/variant]   components [A-Za-z0-9_.-]+; the os may carry "(version)", as in
//                       containerd's "windows(10.0.17763)/amd64"; os features ("+x") are not
//                       supported
//   arch                a known architecture alone means linux/arch
//
// A lone word is read differently from containerd on purpose: containerd fills the missing
// half from the machine it runs on ("arm64" -> <host os>/arm64, "linux" -> linux/<host
// arch>). A manifest tool must not depend on where it runs, and Kubernetes nodes are Linux
// unless labelled otherwise, so a known architecture gets "linux" and an os alone is an
// error (it does not say which architecture).
//
// Normalization (containerd's Normalize, not its Parse: Parse leaves "linux/arm" without
// a variant and keeps "arm64/v8", Normalize spells them arm/v7 and arm64):
//   os lowercased, macos -> darwin
//   x86_64, x86-64, amd64 -> amd64, variant v1 dropped
//   aarch64, arm64        -> arm64, variant 8 or v8 dropped
//   armhf -> arm/v7, armel -> arm/v6, arm -> arm/v7, arm/5|6|7|8 -> arm/v5|v6|v7|v8
//   i386 -> 386 (variant dropped)
//   arch and variant lowercased; anything else is kept as written
struct Platform {
  std::string os;
  std::string architecture;
  std::string variant;
  std::string os_version;  // Windows build ("10.0.17763"); "" when not known

  // Throws Error(ErrorKind::Input) 'invalid platform "<text>": <rule broken>'.
  static Platform parse(std::string_view text);
  static std::optional<Platform> try_parse(std::string_view text, std::string* why = nullptr);
  // From the separate fields of an image config or index entry; validated like parse()
  // (errors quote "os/arch/variant") and normalized.
  static Platform from_parts(std::string_view os, std::string_view architecture,
                             std::string_view variant = {}, std::string_view os_version = {});

  Platform normalized() const;
  // "os/arch[/variant]" of the normalized platform; os_version is not written, so
  // parse(p.str()).str() == p.str() for every parsed p.
  std::string str() const;
  // os and architecture are both in Go's lists (GOOS, GOARCH). Parsing accepts unknown
  // names, since registries hold them ("unknown/unknown" attestations); callers reading
  // user configuration can warn on typos with this.
  bool is_known() const;

  friend bool operator==(const Platform&, const Platform&) = default;
  friend std::strong_ordering operator<=>(const Platform&, const Platform&) = default;
};

std::string normalize_os(std::string_view os);
// {architecture, variant}
std::pair<std::string, std::string> normalize_architecture(std::string_view architecture,
                                                           std::string_view variant);
bool is_known_os(std::string_view os);
bool is_known_architecture(std::string_view architecture);

}  // namespace archfit::image
