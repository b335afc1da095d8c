// The subcommands of the archfit command line. Each lives in its own file,
// registers its flags on the CLI11 app and hands what they hold to its
// surface (surface/command_line, surface/krm, ...); main() only wires them
// and maps errors to exit codes.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include <archfit/app/exit.hpp>

namespace archfit::cli {

// Exit codes (docs/architecture.md, "Failure").
using app::ExitCode;
using app::kChangesOrFindings;
using app::kOk;
using app::kUnresolved;
using app::kUsageOrInput;

// What a subcommand's callback sets for main() to return.
struct RunState {
  int exit_code = kOk;
  bool separator = false;  // "--" was given: what follows are operands
};

// Under pre-commit (PRE_COMMIT=1), file names must follow "--": the hooks'
// args default to [--], and a file named like an option (--config=x.yaml)
// must not become one, nor the run fall back to stdin when it was the only
// file. Throws Error(Usage) when "--" was not given.
void require_files_after_separator(const RunState& state);

void add_version_command(CLI::App& app, RunState& state);
void add_images_command(CLI::App& app, RunState& state);
void add_fix_command(CLI::App& app, RunState& state);
void add_lint_command(CLI::App& app, RunState& state);
void add_resolve_command(CLI::App& app, RunState& state);
void add_lock_command(CLI::App& app, RunState& state);
void add_cache_command(CLI::App& app, RunState& state);
void add_post_render_command(CLI::App& app, RunState& state);
void add_krm_command(CLI::App& app, RunState& state);
void add_argocd_command(CLI::App& app, RunState& state);

}  // namespace archfit::cli
