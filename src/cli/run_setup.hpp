// What the commands that read manifests share before the pipeline runs: the
// inputs, the loaded configuration, the lock file, the cache, the registry
// access and the resolver over them.
#pragma once

#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include <archfit/cache/store.hpp>
#include <archfit/config/loader.hpp>
#include <archfit/manifest/inputs.hpp>
#include <archfit/resolve/resolver.hpp>
#include <archfit/run/run.hpp>

#include "cli/features.hpp"
#include "cli/flags.hpp"
#include "cli/network.hpp"

namespace archfit::cli {

// A configuration found near some input files, and what answers for its
// lock file.
struct FoundConfig {
  config::LoadedConfig loaded;
  std::unique_ptr<Network> network;  // null when offline
  std::unique_ptr<resolve::Resolver> resolver;
};

struct RunSetup {
  std::vector<manifest::InputFile> inputs;
  config::LoadedConfig loaded;  // the configuration of the first PATH (what lock and images use)
  std::unique_ptr<cache::Store> cache;  // null when no cache directory can be determined
  std::unique_ptr<Network> network;     // null when offline
  std::unique_ptr<resolve::Resolver> resolver;
  std::unique_ptr<Features> features = std::make_unique<Features>();
  run::RunOptions run_options;  // its features are `features`
  // Other configurations: an input whose nearest .archfit.yaml (or lock file)
  // is another one's uses it. setting_of[i] is inputs[i]'s: 0 for the above,
  // k for others[k - 1].
  std::vector<std::unique_ptr<FoundConfig>> others;
  std::vector<std::size_t> setting_of;

  // The run's settings and inputs, each input with its own configuration.
  std::vector<run::Setting> settings() const;
  // What every setting's resolver did, summed.
  resolve::Stats stats() const;
  std::vector<run::Input> run_inputs() const;
};

struct SetupOptions {
  bool read_inputs = true;  // `archfit resolve` takes images, not manifests
  // Each input file uses the nearest configuration above it (lint, fix);
  // otherwise the first PATH's applies to all. --config and ARCHFIT_CONFIG
  // apply to all either way.
  bool config_per_file = false;
  bool use_lock = true;  // `archfit lock` asks again instead of reading the old lock
  bool verbose = false;  // log every registry request on stderr
  // A KRM functionConfig to read instead of a configuration file.
  yaml::NodeRef function_config = {};
  // The command runs where nobody reads warnings (config::ConfigRequest).
  std::string unattended = {};
};

// Throws Error(Usage) when inputs are wanted, no PATH is given and standard
// input is a terminal.
RunSetup prepare_run(const std::vector<std::string>& paths, const CommonFlags& flags,
                     const SetupOptions& options = {});

// "archfit: 300 images: 0 from the lock file, 12 from the cache, 288 from
// registries, 0 failed; 612 requests (300 HEAD, 312 GET), 1.2 MiB in 1.43 s"
void print_resolution_summary(std::ostream& out, const resolve::Stats& stats);

// The line every run ends with: "archfit: 3 of 4 images resolved (2 from the
// lock file, 1 from the cache, 0 from registries)", or that there were none.
void print_resolved(std::ostream& out, const resolve::Stats& stats);

// A run that looked up images, resolved none of them and was told nothing
// about that case (config::LoadedConfig::unresolved_decided) checked
// nothing: the lines that say so, with the commands that resolve them
// without a registry; "" when the run checked something. lint and fix fail
// with it (exit 3), as an unattended run does.
std::string checked_nothing(const RunSetup& setup);

// Why a run whose images could not all be resolved failed, one line.
inline constexpr const char* kUnresolvedFailure =
    "archfit: images could not be resolved, and this run fails on them (resolve.onUnresolved is "
    "fail, or unset in an unattended run: see docs/configuration.md)";

// What the run noticed besides findings, one "archfit: ..." line each: its
// warnings, and the files that are not Kubernetes manifests (documents, none
// of them with apiVersion and kind: a values.yaml, a CI configuration), at
// most 10 of them named.
void print_notices(std::ostream& out, const run::RunResult& run);

}  // namespace archfit::cli
