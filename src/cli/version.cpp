#include <iostream>

#include "cli/commands.hpp"

namespace archfit::cli {

void add_version_command(CLI::App& app, RunState& /*state*/) {
  CLI::App* cmd = app.add_subcommand("version", "Print archfit's version");
  cmd->callback([] { std::cout << "archfit " << ARCHFIT_VERSION << '\n'; });
}

}  // namespace archfit::cli
