// Registering the flags of config::CommonFlags on a command (CLI11 stays in
// the command line; the config module only reads what they hold).
#pragma once

#include <string>
#include <vector>

#include <archfit/app/reports.hpp>
#include <archfit/config/loader.hpp>

namespace CLI {
class App;
}  // namespace CLI

namespace archfit::cli {

using config::CommonFlags;

// Registers --config --lock --cache-dir --offline/--no-offline --platforms
// --concurrency --timeout on `app`, writing into `flags`, which must live until
// the app has parsed (subcommands keep theirs in a shared_ptr).
void add_common_flags(CLI::App* app, CommonFlags& flags);
// --follow-symlinks, for the commands that read manifests from PATHs.
void add_input_flags(CLI::App* app, CommonFlags& flags);
// The two of them that commands without manifests (archfit cache) take.
void add_config_flag(CLI::App* app, CommonFlags& flags);     // --config FILE
void add_cache_dir_flag(CLI::App* app, CommonFlags& flags);  // --cache-dir DIR

// --format, -o/--output, --report, --category and --source-root on a command.
void add_report_flags(CLI::App* cmd, app::ReportRequest& flags);

// Global options may come before the command, as with git and kubectl:
// `archfit --offline --lock L lint x.yaml` is `archfit lint --offline --lock L
// x.yaml`. Moves the common flags (and -v, -q) that precede the command
// name to just after it; `--version` alone or before a command becomes the
// version command. Anything else, and everything after "--", stays where it
// is, so that CLI11 reports what it does not know.
std::vector<std::string> hoist_global_options(std::vector<std::string> args);

}  // namespace archfit::cli
