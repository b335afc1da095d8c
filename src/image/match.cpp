// Matching only; the policy is described in match.hpp. Normalization is in
// platform_database.cpp and runs first, so this file never sees "aarch64" or "armhf".
#include <optional>
#include <string_view>

#include <archfit/image/match.hpp>

namespace archfit::image {

namespace {

// A variant as numbers: "v7" -> 7.0, "v8.2" -> 8.2. Architectures whose variants are
// levels (arm, arm64, amd64) are compared this way.
struct Level {
  int major = 0;
  int minor = 0;
};

// Reads a decimal number off the front of text. max_digits keeps it far from overflow.
std::optional<int> parse_number(std::string_view& text, std::size_t max_digits) {
  int value = 0;
  std::size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') {
    if (digits == max_digits) return std::nullopt;
    value = value * 10 + (text[digits] - '0');
    ++digits;
  }
  if (digits == 0) return std::nullopt;
  text.remove_prefix(digits);
  return value;
}

constexpr std::size_t kLevelDigits = 4;
constexpr std::size_t kWindowsDigits = 9;

// `unwritten` is the level an empty variant stands for (arm64 -> v8, amd64 -> v1).
std::optional<Level> parse_level(std::string_view variant, Level unwritten) {
  if (variant.empty()) return unwritten;
  if (variant.front() == 'v') variant.remove_prefix(1);
  Level level;
  auto major = parse_number(variant, kLevelDigits);
  if (!major) return std::nullopt;
  level.major = *major;
  if (!variant.empty() && variant.front() == '.') {
    variant.remove_prefix(1);
    auto minor = parse_number(variant, kLevelDigits);
    if (!minor) return std::nullopt;
    level.minor = *minor;
  }
  if (!variant.empty()) return std::nullopt;
  return level;
}

constexpr Level kArmDefault{7, 0};
constexpr Level kArm64Default{8, 0};
constexpr Level kAmd64Default{1, 0};
constexpr int kOldestArm = 5;    // containerd never falls back below arm/v5
constexpr int kArm64AsArm = 8;   // the newest 32-bit level an arm64 host offers
constexpr int kArmV9FromV8 = 5;  // v9.0 branched from v8.5, so v9.x runs v8.(x+5)

bool arm_runs(Level image, Level host) {
  return image.minor == 0 && host.minor == 0 && image.major >= kOldestArm &&
         image.major <= host.major;
}

bool amd64_runs(Level image, Level host) {
  return image.minor == 0 && host.minor == 0 && image.major >= 1 && image.major <= host.major;
}

bool arm64_runs(Level image, Level host) {
  if (host.major < kArm64Default.major) return false;
  if (image.major == host.major) return image.minor <= host.minor;
  return host.major == 9 && image.major == 8 && image.minor <= host.minor + kArmV9FromV8;
}

bool same_architecture_runs(const Platform& image, const Platform& host) {
  if (image.variant == host.variant) return true;
  const std::string& arch = host.architecture;
  if (arch != "arm" && arch != "arm64" && arch != "amd64") return false;
  Level unwritten = arch == "arm" ? kArmDefault : arch == "arm64" ? kArm64Default : kAmd64Default;
  auto image_level = parse_level(image.variant, unwritten);
  auto host_level = parse_level(host.variant, unwritten);
  if (!image_level || !host_level) return false;
  if (arch == "arm") return arm_runs(*image_level, *host_level);
  if (arch == "arm64") return arm64_runs(*image_level, *host_level);
  return amd64_runs(*image_level, *host_level);
}

// containerd's fallbacks to the 32-bit sibling of the host's architecture.
bool cross_architecture_runs(const Platform& image, const Platform& host) {
  if (host.architecture == "amd64" && image.architecture == "386") {
    return image.variant.empty();
  }
  if (host.architecture == "arm64" && image.architecture == "arm") {
    auto host_level = parse_level(host.variant, kArm64Default);
    auto image_level = parse_level(image.variant, kArmDefault);
    return host_level && image_level && host_level->major >= kArm64Default.major &&
           arm_runs(*image_level, Level{kArm64AsArm, 0});
  }
  return false;
}

// major.minor.build of a Windows os.version; the fourth (revision) part does not matter.
struct WindowsBuild {
  int major = 0;
  int minor = 0;
  int build = 0;
};

std::optional<WindowsBuild> parse_windows_build(std::string_view version) {
  WindowsBuild out;
  int* fields[] = {&out.major, &out.minor, &out.build};
  for (std::size_t i = 0; i < 3; ++i) {
    if (i > 0) {
      if (version.empty() || version.front() != '.') return std::nullopt;
      version.remove_prefix(1);
    }
    auto number = parse_number(version, kWindowsDigits);
    if (!number) return std::nullopt;
    *fields[i] = *number;
  }
  return out;
}

// Windows Server 2022: the first build whose containers run on later hosts.
constexpr int kStableAbiBuild = 20348;

bool windows_build_runs(std::string_view image_version, std::string_view host_version) {
  if (image_version.empty() || host_version.empty()) return true;
  auto host = parse_windows_build(host_version);
  if (!host) return true;  // containerd: an unreadable host version constrains nothing
  auto image = parse_windows_build(image_version);
  if (!image) return false;
  if (image->major != host->major || image->minor != host->minor) return false;
  if (host->build < kStableAbiBuild) return image->build == host->build;
  return image->build >= kStableAbiBuild && image->build <= host->build;
}

}  // namespace

bool can_run_on(const Platform& image_platform, const Platform& host_platform, MatchPolicy policy) {
  return can_run_on_normalized(image_platform.normalized(), host_platform.normalized(), policy);
}

bool can_run_on_normalized(const Platform& image, const Platform& host, MatchPolicy policy) {
  if (image.os != host.os) return false;
  if (host.os == "windows" && !windows_build_runs(image.os_version, host.os_version)) {
    return false;
  }
  if (image.architecture == host.architecture) return same_architecture_runs(image, host);
  return policy == MatchPolicy::Containerd && cross_architecture_runs(image, host);
}

}  // namespace archfit::image
