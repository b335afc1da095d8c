// `archfit lint`: report what fix would change and what it cannot fix.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include <archfit/app/exit.hpp>
#include <archfit/app/output.hpp>
#include <archfit/app/reports.hpp>
#include <archfit/config/loader.hpp>

namespace archfit::surface::command_line {

struct LintRequest {
  std::vector<std::string> paths;
  config::CommonFlags flags;
  config::Environment env = config::process_environment();  // ARCHFIT_* and the rest
  app::ReportRequest report;
  std::string fail_on = "error";  // error, warning, info or never
  bool verbose = false;
};

app::ExitCode lint(const LintRequest& request, app::Output& out, std::ostream& err);

}  // namespace archfit::surface::command_line
