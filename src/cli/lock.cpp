// `archfit lock`: its flags (surface/command_line/lock.hpp does the work).
#include <iostream>
#include <memory>

#include <archfit/surface/command_line/lock.hpp>

#include "cli/commands.hpp"
#include "cli/flags.hpp"

namespace archfit::cli {

void add_lock_command(CLI::App& app, RunState& state) {
  auto o = std::make_shared<surface::command_line::LockRequest>();
  CLI::App* cmd = app.add_subcommand(
      "lock",
      "Resolve every image in the manifests and write the lock file (archfit.lock) for offline "
      "runs");
  cmd->add_option("paths", o->paths,
                  "Files or directories (searched for *.yaml, *.yml); '-' or none: stdin");
  cmd->add_option("--set", o->set,
                  "IMAGE=PLATFORMS: write this entry into the lock file without asking a registry "
                  "(several at once: --set A=P B=Q, or --set A=P --set B=Q; the lock's other "
                  "entries stay)")
      ->type_name("IMAGE=PLATFORMS")
      ->allow_extra_args(false);
  cmd->add_flag("--check", o->check,
                "Write nothing: compare every lock the inputs use with the registries (a tag that "
                "moved, platforms that changed, entries unused, images missing); exit 1 on any");
  cmd->add_flag("--prune", o->prune,
                "Drop the entries no manifest in a lock's scope uses (no registry is asked)");
  cmd->add_option("--format", o->format,
                  "How what changed is printed on stdout: text, json or markdown")
      ->check(CLI::IsMember({"text", "json", "markdown"}))
      ->capture_default_str();
  cmd->add_option("--diff", o->diff,
                  "Write a unified diff of every lock written to FILE (empty when none changed)")
      ->type_name("FILE");
  cmd->add_flag("-q,--quiet", o->quiet, "Print only errors");
  cmd->add_flag("-v,--verbose", o->verbose,
                "Log registry requests and print how images were resolved");
  add_common_flags(cmd, o->flags);
  add_input_flags(cmd, o->flags);
  cmd->callback([o, &state] {
    require_files_after_separator(state);
    state.exit_code = surface::command_line::lock(*o, app::standard_output(), std::cerr);
  });
}

}  // namespace archfit::cli
