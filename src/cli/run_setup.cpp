#include "cli/run_setup.hpp"

#include <cstdio>
#include <iostream>
#include <ostream>
#include <unistd.h>

#include <archfit/base/error.hpp>

namespace archfit::cli {

namespace {

std::ostream* progress_stream(const std::string& mode) {
  if (mode == "always") return &std::cerr;
  if (mode == "never") return nullptr;
  return ::isatty(STDERR_FILENO) ? &std::cerr : nullptr;
}

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

RunSetup prepare_run(const std::vector<std::string>& paths, const CommonFlags& flags,
                     const SetupOptions& options) {
  RunSetup setup;
  if (options.read_inputs) {
    if (paths.empty() && ::isatty(STDIN_FILENO)) {
      fail(ErrorKind::Usage,
           "no input: give files or directories, or pipe manifests to standard input ('-')");
    }
    manifest::Inputs inputs =
        manifest::collect_inputs(paths, manifest::InputOptions{flags.follow_symlinks});
    for (const std::string& skipped : inputs.skipped)
      std::cerr << "archfit: " << skipped << '\n';
    setup.inputs = std::move(inputs.files);
  }
  ConfigRequest request;
  request.flags = flags;
  request.start_dir = options.read_inputs ? discovery_start(paths) : std::filesystem::path();
  setup.loaded = load_config(request);
  cache::LockFile lock;
  if (options.use_lock) lock = load_lock_file(setup.loaded);
  std::string lock_name = lock.size() > 0 || setup.loaded.lock_explicit
                              ? setup.loaded.lock_file.string()
                              : std::string();

  resolve::Sources sources;
  sources.use_lock = options.use_lock;
  sources.offline = setup.loaded.offline;
  if (!setup.loaded.cache_dir.empty()) {
    setup.cache = std::make_unique<cache::Store>(setup.loaded.cache_dir);
    sources.cache = setup.cache.get();
  }
  if (!setup.loaded.offline) {
    setup.network = std::make_unique<Network>(setup.loaded.config.resolve, options.verbose);
    sources.connect = [network = setup.network.get()]() -> registry::Client& {
      return network->client();
    };
  }
  setup.resolver = std::make_unique<resolve::Resolver>(setup.loaded.config.resolve, std::move(lock),
                                                       std::move(lock_name), std::move(sources));
  setup.run_options.progress.out = progress_stream(flags.progress.value_or("auto"));
  return setup;
}

void print_resolution_summary(std::ostream& out, const resolve::Stats& s) {
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.2f", s.seconds);
  out << "archfit: " << s.images << " images: " << s.from_lock << " from the lock file, "
      << s.from_cache << " from the cache, " << s.from_registry << " from registries, " << s.failed
      << " failed; " << s.requests << " requests (" << s.heads << " HEAD, " << s.gets << " GET), "
      << human_bytes(s.bytes) << " in " << seconds << " s\n";
}

}  // namespace archfit::cli
