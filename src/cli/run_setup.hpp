// What fix and lint share before the pipeline runs: the inputs, the loaded
// configuration, the lock file and the resolver.
#pragma once

#include <archfit/manifest/inputs.hpp>
#include <archfit/resolve/resolver.hpp>

#include <memory>
#include <string>
#include <vector>

#include "cli/config_loader.hpp"

namespace archfit::cli {

struct RunSetup {
  std::vector<manifest::InputFile> inputs;
  LoadedConfig loaded;
  std::unique_ptr<resolve::Resolver> resolver;
};

// Throws Error(Usage) when no PATH is given and standard input is a terminal.
RunSetup prepare_run(const std::vector<std::string>& paths, const CommonFlags& flags);

}  // namespace archfit::cli
