// `archfit lint`: its flags (surface/command_line/lint.hpp does the work).
#include <iostream>
#include <memory>

#include <archfit/surface/command_line/lint.hpp>

#include "cli/commands.hpp"
#include "cli/flags.hpp"

namespace archfit::cli {

void add_lint_command(CLI::App& app, RunState& state) {
  auto o = std::make_shared<surface::command_line::LintRequest>();
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
  add_common_flags(cmd, o->flags);
  add_input_flags(cmd, o->flags);
  cmd->callback([o, &state] {
    require_files_after_separator(state);
    state.exit_code = surface::command_line::lint(*o, app::standard_output(), std::cerr);
  });
}

}  // namespace archfit::cli
