// Only normalization and the lists of known names live here; matching is in match.cpp.
#include <algorithm>
#include <array>
#include <tuple>

#include <archfit/base/text.hpp>
#include <archfit/image/platform.hpp>

namespace archfit::image {

namespace {

// Go's GOOS and GOARCH lists (go/build/syslist.go), as containerd keeps them.
constexpr std::array<std::string_view, 17> kKnownOs = {
    "aix",   "android", "darwin", "dragonfly", "freebsd", "hurd",    "illumos", "ios", "js",
    "linux", "nacl",    "netbsd", "openbsd",   "plan9",   "solaris", "windows", "zos",
};
constexpr std::array<std::string_view, 24> kKnownArchitectures = {
    "386",     "amd64",   "amd64p32", "arm",    "armbe",  "arm64",    "arm64be",   "ppc64",
    "ppc64le", "loong64", "mips",     "mipsle", "mips64", "mips64le", "mips64p32", "mips64p32le",
    "ppc",     "riscv",   "riscv64",  "s390",   "s390x",  "sparc",    "sparc64",   "wasm",
};

bool listed(std::string_view name, auto const& list) {
  return std::find(list.begin(), list.end(), name) != list.end();
}

}  // namespace

std::string normalize_os(std::string_view os) {
  std::string out = to_lower(os);
  if (out == "macos") out = "darwin";
  return out;
}

std::pair<std::string, std::string> normalize_architecture(std::string_view architecture,
                                                           std::string_view variant) {
  std::string arch = to_lower(architecture);
  std::string var = to_lower(variant);
  if (arch == "i386") {
    return {"386", ""};
  }
  if (arch == "x86_64" || arch == "x86-64" || arch == "amd64") {
    return {"amd64", var == "v1" ? "" : var};
  }
  if (arch == "aarch64" || arch == "arm64") {
    return {"arm64", var == "8" || var == "v8" ? "" : var};
  }
  if (arch == "armhf") return {"arm", "v7"};
  if (arch == "armel") return {"arm", "v6"};
  if (arch == "arm") {
    if (var.empty() || var == "7") return {"arm", "v7"};
    if (var == "5" || var == "6" || var == "8") return {"arm", "v" + var};
    return {"arm", var};
  }
  return {arch, var};
}

bool is_known_os(std::string_view os) {
  return listed(os, kKnownOs);
}

bool is_known_architecture(std::string_view architecture) {
  return listed(architecture, kKnownArchitectures);
}

Platform Platform::normalized() const {
  Platform out;
  out.os = normalize_os(os);
  std::tie(out.architecture, out.variant) = normalize_architecture(architecture, variant);
  out.os_version = os_version;
  return out;
}

bool Platform::is_known() const {
  Platform n = normalized();
  return is_known_os(n.os) && is_known_architecture(n.architecture);
}

}  // namespace archfit::image
