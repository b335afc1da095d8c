// `archfit lock [PATH...]`: resolve every image of the manifests again and
// write the lock file, so that later runs (CI, pre-commit) need no network;
// `--set IMAGE=PLATFORMS` writes entries by hand, without a registry.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include <archfit/app/exit.hpp>
#include <archfit/config/loader.hpp>

namespace archfit::surface::command_line {

struct LockRequest {
  std::vector<std::string> paths;
  std::vector<std::string> set;  // --set IMAGE=PLATFORMS
  config::CommonFlags flags;
  bool verbose = false;
  bool quiet = false;
};

app::ExitCode lock(const LockRequest& request, std::ostream& err);

}  // namespace archfit::surface::command_line
