// `archfit fix`: its flags (surface/command_line/fix.hpp does the work).
#include <iostream>
#include <memory>

#include <archfit/surface/command_line/fix.hpp>

#include "cli/commands.hpp"
#include "cli/flags.hpp"

namespace archfit::cli {

void add_fix_command(CLI::App& app, RunState& state) {
  auto o = std::make_shared<surface::command_line::FixRequest>();
  CLI::App* cmd = app.add_subcommand(
      "fix",
      "Add node affinity and tolerations to pod templates so that each runs only where its images "
      "do, recording what was added in the archfit.io/owned annotation");
  cmd->add_option("paths", o->paths,
                  "Files or directories (searched for *.yaml, *.yml); '-' or none: stdin to "
                  "stdout");
  cmd->add_flag("--check", o->check, "Write nothing; exit 1 if anything would change");
  cmd->add_flag("--diff", o->diff,
                "Write nothing; print a unified diff; exit 1 if anything would change");
  cmd->add_flag(
      "--remove", o->remove,
      "Take out exactly what archfit added earlier (as its archfit.io/owned records say)");
  cmd->add_flag("-q,--quiet", o->quiet, "Print only errors");
  cmd->add_option("--changed-files", o->changed_files,
                  "Write the names of the files fix changed (with --check or --diff: would "
                  "change) to FILE, each followed by a NUL byte")
      ->type_name("FILE");
  add_report_flags(cmd, o->report);
  cmd->add_flag("-v,--verbose", o->verbose,
                "Log registry requests and print how images were resolved");
  add_common_flags(cmd, o->flags);
  add_input_flags(cmd, o->flags);
  cmd->callback([o, &state] {
    require_files_after_separator(state);
    state.exit_code = surface::command_line::fix(*o, app::standard_output(), std::cerr);
  });
}

}  // namespace archfit::cli
