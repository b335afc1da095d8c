// `archfit resolve`: its flags (surface/command_line/resolve.hpp does the work).
#include <iostream>
#include <memory>

#include <archfit/surface/command_line/resolve.hpp>

#include "cli/commands.hpp"
#include "cli/flags.hpp"

namespace archfit::cli {

void add_resolve_command(CLI::App& app, RunState& state) {
  auto o = std::make_shared<surface::command_line::ResolveRequest>();
  CLI::App* cmd = app.add_subcommand(
      "resolve",
      "Print the digest and platforms of images (from the lock file, the cache or the registry)");
  cmd->add_option("images", o->images,
                  "Image references, e.g. nginx:1.25 ghcr.io/org/app@sha256:...")
      ->required();
  cmd->add_option("--format", o->format, "Output format: text or json")->capture_default_str();
  cmd->add_flag("-v,--verbose", o->verbose,
                "Log registry requests and print how images were resolved");
  add_common_flags(cmd, o->flags);
  cmd->callback([o, &state] {
    state.exit_code = surface::command_line::resolve(*o, app::standard_output(), std::cerr);
  });
}

}  // namespace archfit::cli
