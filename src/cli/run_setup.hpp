// What the commands that read manifests share before the pipeline runs: the
// inputs, the loaded configuration, the lock file, the cache, the registry
// access and the resolver over them.
#pragma once

#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include <archfit/cache/store.hpp>
#include <archfit/manifest/inputs.hpp>
#include <archfit/resolve/resolver.hpp>
#include <archfit/run/run.hpp>

#include "cli/config_loader.hpp"
#include "cli/network.hpp"

namespace archfit::cli {

struct RunSetup {
  std::vector<manifest::InputFile> inputs;
  LoadedConfig loaded;
  std::unique_ptr<cache::Store> cache;  // null when no cache directory can be determined
  std::unique_ptr<Network> network;     // null when offline
  std::unique_ptr<resolve::Resolver> resolver;
  run::RunOptions run_options;
};

struct SetupOptions {
  bool read_inputs = true;  // `archfit resolve` takes images, not manifests
  bool use_lock = true;     // `archfit lock` asks again instead of reading the old lock
  bool verbose = false;     // log every registry request on stderr
};

// Throws Error(Usage) when inputs are wanted, no PATH is given and standard
// input is a terminal.
RunSetup prepare_run(const std::vector<std::string>& paths, const CommonFlags& flags,
                     const SetupOptions& options = {});

// "archfit: 300 images: 0 from the lock file, 12 from the cache, 288 from
// registries, 0 failed; 612 requests (300 HEAD, 312 GET), 1.2 MiB in 1.43 s"
void print_resolution_summary(std::ostream& out, const resolve::Stats& stats);

}  // namespace archfit::cli
