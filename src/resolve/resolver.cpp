#include <utility>

#include <archfit/resolve/resolver.hpp>

namespace archfit::resolve {

std::string_view source_name(Source s) {
  switch (s) {
    case Source::Lock:
      return "lock";
    case Source::Cache:
      return "cache";
    case Source::Registry:
      return "registry";
  }
  return "lock";
}

Resolver::Resolver(Settings settings, cache::LockFile lock, std::string lock_name)
    : settings_(std::move(settings)), lock_(std::move(lock)), lock_name_(std::move(lock_name)) {}

Resolver::~Resolver() = default;

const Resolution* Resolver::resolve_local(const image::Reference& ref) {
  std::lock_guard<std::mutex> hold(mutex_);
  auto [it, inserted] = results_.try_emplace(ref.canonical());
  if (!inserted) return it->second.get();
  auto r = std::make_unique<Resolution>();
  if (const cache::LockEntry* entry = lock_.find(ref)) {
    r->ok = true;
    r->platforms = entry->platforms;
    r->digest = entry->digest;
    r->source = Source::Lock;
  } else {
    r->error = "not in the lock file " +
               (lock_name_.empty() ? std::string("(none was found)") : lock_name_);
  }
  it->second = std::move(r);
  return it->second.get();
}

const Resolution* Resolver::find(const image::Reference& ref) const {
  std::lock_guard<std::mutex> hold(mutex_);
  auto it = results_.find(ref.canonical());
  return it == results_.end() ? nullptr : it->second.get();
}

}  // namespace archfit::resolve
