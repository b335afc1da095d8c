#include <algorithm>
#include <iterator>
#include <utility>

#include <archfit/base/error.hpp>
#include <archfit/base/text.hpp>
#include <archfit/image/platform_set.hpp>

namespace archfit::image {

namespace {

// The form a set keeps: normalized, without the Windows build.
Platform member_form(const Platform& platform) {
  Platform out = platform.normalized();
  out.os_version.clear();
  return out;
}

std::vector<std::string> distinct(std::vector<std::string> values) {
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  return values;
}

}  // namespace

PlatformSet::PlatformSet(std::vector<Platform> platforms) {
  for (Platform& platform : platforms)
    platform = member_form(platform);
  std::sort(platforms.begin(), platforms.end());
  platforms.erase(std::unique(platforms.begin(), platforms.end()), platforms.end());
  items_ = std::move(platforms);
}

PlatformSet PlatformSet::parse(std::string_view csv) {
  PlatformSet out;
  if (trim(csv).empty()) return out;
  std::size_t index = 0;
  for (std::string_view entry : split(csv, ',')) {
    ++index;
    entry = trim(entry);
    if (entry.empty()) {
      fail(ErrorKind::Input, "invalid platform list " + quoted(csv) + ": entry " +
                                 std::to_string(index) + " is empty");
    }
    out.insert(Platform::parse(entry));
  }
  return out;
}

bool PlatformSet::insert(const Platform& platform) {
  Platform member = member_form(platform);
  auto at = std::lower_bound(items_.begin(), items_.end(), member);
  if (at != items_.end() && *at == member) return false;
  items_.insert(at, std::move(member));
  return true;
}

bool PlatformSet::contains(const Platform& platform) const {
  // Members are in member form; most platforms asked about are members of
  // another set, and so already in it.
  return std::binary_search(items_.begin(), items_.end(), platform) ||
         std::binary_search(items_.begin(), items_.end(), member_form(platform));
}

bool PlatformSet::runs_on(const Platform& host, MatchPolicy policy) const {
  return std::any_of(items_.begin(), items_.end(),
                     [&](const Platform& image) { return can_run_on(image, host, policy); });
}

PlatformSet PlatformSet::filter_runnable_on(const PlatformSet& hosts, MatchPolicy policy) const {
  PlatformSet out;
  // Both sets' members are normalized already.
  std::copy_if(hosts.begin(), hosts.end(), std::back_inserter(out.items_), [&](const Platform& host) {
    return std::any_of(items_.begin(), items_.end(), [&](const Platform& image) {
      return can_run_on_normalized(image, host, policy);
    });
  });
  return out;
}

PlatformSet PlatformSet::intersect(const PlatformSet& other) const {
  PlatformSet out;
  std::set_intersection(items_.begin(), items_.end(), other.begin(), other.end(),
                        std::back_inserter(out.items_));
  return out;
}

std::vector<std::string> PlatformSet::archs() const {
  std::vector<std::string> out;
  for (const Platform& platform : items_)
    out.push_back(platform.architecture);
  return distinct(std::move(out));
}

std::vector<std::string> PlatformSet::oses() const {
  std::vector<std::string> out;
  for (const Platform& platform : items_)
    out.push_back(platform.os);
  return distinct(std::move(out));
}

std::vector<std::string> PlatformSet::strs() const {
  std::vector<std::string> out;
  out.reserve(items_.size());
  for (const Platform& platform : items_)
    out.push_back(platform.str());
  return out;
}

std::string PlatformSet::str() const {
  std::string out;
  for (const Platform& platform : items_) {
    if (!out.empty()) out += ',';
    out += platform.str();
  }
  return out;
}

}  // namespace archfit::image
