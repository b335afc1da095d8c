// `archfit fix`: write what each pod template needs into the files (or show
// it with --diff, or only say whether anything would change with --check).
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include <archfit/app/exit.hpp>
#include <archfit/app/output.hpp>
#include <archfit/app/reports.hpp>
#include <archfit/config/loader.hpp>

namespace archfit::surface::command_line {

struct FixRequest {
  std::vector<std::string> paths;
  config::CommonFlags flags;
  config::Environment env = config::process_environment();  // ARCHFIT_* and the rest
  bool check = false;
  bool diff = false;
  bool remove = false;
  bool quiet = false;
  bool verbose = false;
  app::ReportRequest report;  // with check or diff: lint's report of the same run
  std::string changed_files;  // --changed-files FILE
};

// Throws Error for usage and input errors (nothing written).
app::ExitCode fix(const FixRequest& request, app::Output& out, std::ostream& err);

}  // namespace archfit::surface::command_line
