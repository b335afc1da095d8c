// `archfit lint`: report what fix would change and what it cannot fix.
#include <iostream>
#include <memory>

#include <archfit/base/atomic_write.hpp>
#include <archfit/base/error.hpp>
#include <archfit/base/file.hpp>
#include <archfit/report/report.hpp>
#include <archfit/run/run.hpp>

#include "cli/commands.hpp"
#include "cli/report_output.hpp"
#include "cli/run_setup.hpp"

namespace archfit::cli {

namespace {

struct LintOptions {
  std::vector<std::string> paths;
  CommonFlags common;
  ReportFlags report;
  std::string fail_on = "error";
  bool verbose = false;
};

int run_lint(const LintOptions& o) {
  std::optional<findings::Severity> threshold;
  if (o.fail_on != "never") threshold = findings::parse_severity(o.fail_on);
  // Infos (mutable tags, skipped images) are many; text shows them when asked.
  findings::Severity shown = o.verbose || threshold == findings::Severity::Info
                                 ? findings::Severity::Info
                                 : findings::Severity::Warning;
  ReportOutput report(o.report, shown);
  RunSetup setup =
      prepare_run(o.paths, o.common, SetupOptions{.config_per_file = true, .verbose = o.verbose});
  run::RunResult run = run::run_pipeline(setup.run_inputs(), setup.settings(), run::Task::Lint,
                                         report.sink(), setup.run_options);
  print_notices(std::cerr, run);
  print_resolved(std::cerr, setup.stats());
  if (o.verbose) print_resolution_summary(std::cerr, setup.stats());
  report.write(report::Summary{run.files.size(), run.workloads, run.templates, run.counts});
  if (run.unresolved_failure) {
    std::cerr << kUnresolvedFailure << '\n';
    return kUnresolved;
  }
  if (std::string why = checked_nothing(setup); !why.empty()) {
    std::cerr << why << '\n';
    return kUnresolved;
  }
  // What archfit could not read was not checked: never a pass.
  if (run.faults > 0 || (threshold && run.counts.at_least(*threshold) > 0)) {
    return kChangesOrFindings;
  }
  return kOk;
}

}  // namespace

void add_lint_command(CLI::App& app, RunState& state) {
  auto o = std::make_shared<LintOptions>();
  CLI::App* cmd = app.add_subcommand(
      "lint", "Report pod templates whose placement does not fit their images' platforms");
  cmd->add_option("paths", o->paths,
                  "Files or directories (searched for *.yaml, *.yml); '-' or none: stdin");
  add_report_flags(cmd, o->report);
  cmd->add_option("--fail-on", o->fail_on,
                  "Exit 1 when a finding has this severity or worse: error, warning, info, never")
      ->check(CLI::IsMember({"error", "warning", "info", "never"}))
      ->capture_default_str();
  cmd->add_flag("-v,--verbose", o->verbose,
                "Also show info findings in text output; log registry requests and print how "
                "images were resolved");
  add_common_flags(cmd, o->common);
  add_input_flags(cmd, o->common);
  cmd->callback([o, &state] {
    require_files_after_separator(state);
    state.exit_code = run_lint(*o);
  });
}

}  // namespace archfit::cli
