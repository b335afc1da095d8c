// Image -> platforms, once per distinct image of a run, from the lock file.
// Answers are kept for the whole run, so every image is looked up once however
// many templates use it.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include <archfit/cache/lock_file.hpp>
#include <archfit/image/platform_set.hpp>
#include <archfit/image/reference.hpp>
#include <archfit/resolve/settings.hpp>

namespace archfit::resolve {

enum class Source { Lock, Cache, Registry };

std::string_view source_name(Source s);  // "lock" | "cache" | "registry"

struct Resolution {
  bool ok = false;
  image::PlatformSet platforms;
  std::string digest;  // "" when the source does not know it
  Source source = Source::Lock;
  // When !ok: why, naming the image and where archfit looked, e.g.
  // "docker.io/library/nginx:1.25 is not in the lock file examples/archfit.lock".
  std::string error;
};

class Resolver {
 public:
  Resolver(Settings settings, cache::LockFile lock, std::string lock_name);
  ~Resolver();
  Resolver(const Resolver&) = delete;
  Resolver& operator=(const Resolver&) = delete;

  // The answer for an image; never nullptr. Safe to call from several threads.
  const Resolution* resolve_local(const image::Reference& ref);

  // The answer for an image seen before; nullptr otherwise.
  const Resolution* find(const image::Reference& ref) const;

  const Settings& settings() const { return settings_; }
  const cache::LockFile& lock() const { return lock_; }

 private:
  Settings settings_;
  cache::LockFile lock_;
  std::string lock_name_;
  mutable std::mutex mutex_;
  // Node-based so that pointers handed out stay valid as entries are added.
  std::map<std::string, std::unique_ptr<Resolution>> results_;  // by canonical reference
};

}  // namespace archfit::resolve
