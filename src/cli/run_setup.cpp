#include "cli/run_setup.hpp"

#include <archfit/base/error.hpp>

#include <unistd.h>

namespace archfit::cli {

RunSetup prepare_run(const std::vector<std::string>& paths, const CommonFlags& flags) {
  RunSetup setup;
  if (paths.empty() && ::isatty(STDIN_FILENO)) {
    fail(ErrorKind::Usage,
         "no input: give files or directories, or pipe manifests to standard input ('-')");
  }
  setup.inputs = manifest::collect_inputs(paths);
  ConfigRequest request;
  request.flags = flags;
  request.start_dir = discovery_start(paths);
  setup.loaded = load_config(request);
  cache::LockFile lock = load_lock_file(setup.loaded);
  std::string lock_name = lock.size() > 0 || setup.loaded.lock_explicit
                              ? setup.loaded.lock_file.string()
                              : std::string();
  setup.resolver = std::make_unique<resolve::Resolver>(setup.loaded.config.resolve,
                                                       std::move(lock), std::move(lock_name));
  return setup;
}

}  // namespace archfit::cli
