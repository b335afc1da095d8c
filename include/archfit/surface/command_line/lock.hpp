// `archfit lock [PATH...]`: for every lock file the inputs use (each input's
// nearest, as fix and lint read them), resolve the images its manifests use
// again and write what changed, so that later runs (CI, pre-commit) need no
// network; entries no manifest given uses are kept. `--check` compares
// instead and writes nothing: a tag that moved, a digest whose platforms are
// not the lock's, an entry unused, an image missing. `--prune` drops the
// unused entries and asks no registry. `--set IMAGE=PLATFORMS` writes entries
// by hand, without a registry. `--diff FILE` writes a unified diff of every
// lock written (empty when none changed) for a pull request or a summary.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include <archfit/app/exit.hpp>
#include <archfit/app/output.hpp>
#include <archfit/config/loader.hpp>

namespace archfit::surface::command_line {

struct LockRequest {
  std::vector<std::string> paths;
  std::vector<std::string> set;  // --set IMAGE=PLATFORMS
  config::CommonFlags flags;
  bool verbose = false;
  bool quiet = false;
  bool check = false;
  bool prune = false;
  std::string format = "text";  // of what changed: text, json or markdown
  std::string diff;             // --diff FILE: a unified diff of every lock written
};

// What changed (or, with check, differs) goes to `out`; exit 1 with check
// when anything differs, 3 when an image could not be resolved.
app::ExitCode lock(const LockRequest& request, app::Output& out, std::ostream& err);

}  // namespace archfit::surface::command_line
