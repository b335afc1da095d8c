// `archfit krm`: its flags; the ResourceList from stdin (surface/krm/krm.hpp
// does the work).
#include <iostream>
#include <memory>

#include <archfit/app/request.hpp>
#include <archfit/surface/krm/krm.hpp>

#include "cli/commands.hpp"
#include "cli/flags.hpp"

namespace archfit::cli {

void add_krm_command(CLI::App& app, RunState& state) {
  auto o = std::make_shared<surface::krm::KrmRequest>();
  CLI::App* cmd = app.add_subcommand(
      "krm",
      "KRM function: a ResourceList on stdin, its items fixed and a result per finding on stdout "
      "(kustomize exec functions, kpt); see docs/kustomize.md");
  cmd->add_option("--mode", o->mode,
                  "fix: fix the items and report what is left; lint: leave them, report everything")
      ->check(CLI::IsMember({"fix", "lint"}))
      ->capture_default_str();
  add_common_flags(cmd, o->flags);
  cmd->callback([o, &state] {
    state.exit_code = surface::krm::krm(*o, app::read_standard_input("a ResourceList").text,
                                        app::standard_output(), std::cerr);
  });
}

}  // namespace archfit::cli
