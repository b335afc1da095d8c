#include <cstdio>
#include <string>

#include <archfit/app/messages.hpp>
#include <archfit/base/untrusted.hpp>

namespace archfit::app {

namespace {

std::string human_bytes(std::uint64_t bytes) {
  char text[32];
  if (bytes < 1024) {
    std::snprintf(text, sizeof text, "%llu B", static_cast<unsigned long long>(bytes));
  } else if (bytes < 1024 * 1024) {
    std::snprintf(text, sizeof text, "%.1f KiB", static_cast<double>(bytes) / 1024);
  } else {
    std::snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(bytes) / (1024 * 1024));
  }
  return text;
}

}  // namespace

void print_notices(std::ostream& out, const run::RunResult& run) {
  for (const std::string& w : run.warnings)
    out << for_terminal(Untrusted(w)) << '\n';
  constexpr std::size_t kNamed = 10;
  std::size_t others = 0;
  for (const run::FileResult& file : run.files) {
    if (file.documents == 0 || file.objects > 0) continue;
    if (++others > kNamed) continue;
    out << "archfit: skipped " << for_terminal(Untrusted(file.input.name))
        << ": not a Kubernetes manifest (no document has apiVersion and kind)\n";
  }
  if (others > kNamed) {
    out << "archfit: skipped " << others - kNamed
        << " more files that are not Kubernetes manifests\n";
  }
}

void print_resolution_summary(std::ostream& out, const resolve::Stats& s) {
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.2f", s.seconds);
  out << "archfit: " << s.images << " images: " << s.from_lock << " from the lock file, "
      << s.from_cache << " from the cache, " << s.from_registry << " from registries, " << s.failed
      << " failed; " << s.requests << " requests (" << s.heads << " HEAD, " << s.gets << " GET), "
      << human_bytes(s.bytes) << " in " << seconds << " s\n";
}

void print_resolved(std::ostream& out, const resolve::Stats& s) {
  if (s.images == 0) {
    out << "archfit: no images to resolve\n";
    return;
  }
  out << "archfit: " << s.from_lock + s.from_cache + s.from_registry << " of " << s.images
      << " image" << (s.images == 1 ? "" : "s") << " resolved (" << s.from_lock
      << " from the lock file, " << s.from_cache << " from the cache, " << s.from_registry
      << " from registries)\n";
}

}  // namespace archfit::app
