// The lock's diff (surface/command_line/lock_diff.hpp): over generated locks
// and changes (entries added, removed, re-pointed, their platforms changed,
// the last entry's comma moving), applying the diff to the old bytes gives
// the new ones, and a diff is empty exactly when nothing changed.
#include "surface/command_line/lock_diff.hpp"

#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <archfit/cache/lock_file.hpp>
#include <archfit/image/reference.hpp>

namespace archfit::surface::command_line {
namespace {

std::vector<std::string> diff_lines(const std::string& text) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    end = end == std::string::npos ? text.size() : end + 1;
    out.push_back(text.substr(at, end - at));
    at = end;
  }
  return out;
}

// Applies a unified diff as patch does, checking every context and removed
// line against the old text.
std::string patched(const std::string& before, const std::string& diff) {
  std::vector<std::string> old = diff_lines(before), patch = diff_lines(diff);
  std::string out;
  std::size_t next = 0;  // the next old line not yet copied
  for (std::size_t k = 2; k < patch.size();) {
    unsigned a = 0, b = 0, c = 0, d = 0;
    EXPECT_EQ(std::sscanf(patch[k].c_str(), "@@ -%u,%u +%u,%u @@", &a, &b, &c, &d), 4) << patch[k];
    std::size_t at = b == 0 ? a : a - 1;
    for (; next < at; ++next)
      out += old[next];
    for (++k; k < patch.size() && patch[k][0] != '@'; ++k) {
      const std::string text = patch[k].substr(1);
      if (patch[k][0] == '+') {
        out += text;
        continue;
      }
      EXPECT_LT(next, old.size());
      if (next < old.size()) {
        EXPECT_EQ(old[next], text);
      }
      if (patch[k][0] == ' ') out += text;
      ++next;
    }
  }
  for (; next < old.size(); ++next)
    out += old[next];
  return out;
}

std::string lock_bytes(const cache::LockFile& lock) {
  std::string text;
  lock.write([&text](std::string_view part) { text.append(part); });
  return text;
}

TEST(LockDiff, ReplaysOverGeneratedChanges) {
  const char* platforms[] = {"linux/amd64", "linux/amd64,linux/arm64", "linux/arm64",
                             "linux/amd64,linux/s390x"};
  for (unsigned seed = 1; seed <= 300; ++seed) {
    std::mt19937 rng(seed);
    cache::LockFile before;
    const unsigned n = rng() % 30;
    for (unsigned i = 0; i < n; ++i) {
      before.set(
          image::Reference::parse("registry.example.com/app" + std::to_string(rng() % 60) + ":1"),
          cache::LockEntry{"", image::PlatformSet::parse(platforms[rng() % 4])});
    }
    cache::LockFile after = before;
    for (const std::string& key : before.keys()) {
      switch (rng() % 6) {
        case 0:
          after.remove(key);
          break;
        case 1:
          after.set(image::Reference::parse(key),
                    cache::LockEntry{"", image::PlatformSet::parse(platforms[rng() % 4])});
          break;
        default:
          break;
      }
    }
    for (unsigned i = rng() % 4; i > 0; --i) {
      after.set(
          image::Reference::parse("registry.example.com/new" + std::to_string(rng() % 60) + ":2"),
          cache::LockEntry{"", image::PlatformSet::parse(platforms[rng() % 4])});
    }
    const std::string old_text = lock_bytes(before), new_text = lock_bytes(after);
    std::string diff;
    write_lock_diff(old_text, true, new_text, "deploy/archfit.lock",
                    [&diff](std::string_view part) { diff.append(part); });
    EXPECT_EQ(diff.empty(), old_text == new_text) << seed;
    if (diff.empty()) continue;
    EXPECT_EQ(diff.rfind("--- a/deploy/archfit.lock\n+++ b/deploy/archfit.lock\n@@ ", 0), 0u)
        << diff;
    EXPECT_EQ(patched(old_text, diff), new_text) << "seed " << seed << "\n" << diff;
  }
}

TEST(LockDiff, ANewLockIsAddedWhole) {
  cache::LockFile lock;
  lock.set(image::Reference::parse("nginx:1.27"),
           cache::LockEntry{"", image::PlatformSet::parse("linux/amd64")});
  const std::string text = lock_bytes(lock);
  std::string diff;
  write_lock_diff("", false, text, "archfit.lock",
                  [&diff](std::string_view part) { diff.append(part); });
  EXPECT_EQ(diff.rfind("--- /dev/null\n+++ b/archfit.lock\n@@ -0,0 +1,", 0), 0u) << diff;
  EXPECT_EQ(patched("", diff), text);
}

}  // namespace
}  // namespace archfit::surface::command_line
