// Registering the flags of config::CommonFlags on a command (CLI11 stays in
// the command line; the config module only reads what they hold).
#pragma once

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

}  // namespace archfit::cli
