// The flags every command that reads manifests shares, registered with CLI11;
// what they hold goes to the config module as overrides (config::CommonFlags).
#include "cli/flags.hpp"

#include <CLI/CLI.hpp>

namespace archfit::cli {

void add_config_flag(CLI::App* app, CommonFlags& flags) {
  app->add_option("--config", flags.config,
                  "Configuration file for every input (default: $ARCHFIT_CONFIG, else for each "
                  "file the nearest .archfit.yaml above it, up to the repository root)")
      ->type_name("FILE");
}

void add_cache_dir_flag(CLI::App* app, CommonFlags& flags) {
  app->add_option("--cache-dir", flags.cache_dir,
                  "Cache directory (default: $ARCHFIT_CACHE_DIR, else $XDG_CACHE_HOME/archfit, "
                  "else ~/.cache/archfit)")
      ->type_name("DIR");
}

void add_common_flags(CLI::App* app, CommonFlags& flags) {
  add_config_flag(app, flags);
  app->add_option("--lock", flags.lock,
                  "Lock file (default: $ARCHFIT_LOCK, else archfit.lock beside the configuration "
                  "file)")
      ->type_name("FILE");
  add_cache_dir_flag(app, flags);
  app->add_flag_function(
      "--offline,!--no-offline", [&flags](std::int64_t count) { flags.offline = count > 0; },
      "Never contact a registry: images must be in the lock file or the cache "
      "(default: $ARCHFIT_OFFLINE)");
  app->add_option("--platforms", flags.platforms,
                  "Platforms the cluster runs, comma-separated (default: clusterPlatforms, "
                  "linux/amd64,linux/arm64)")
      ->type_name("LIST");
  app->add_option("--concurrency", flags.concurrency,
                  "Registry requests in flight, 1 to 256 (default: resolve.concurrency, 16)")
      ->type_name("N");
  app->add_option("--timeout", flags.timeout,
                  "Time limit of one registry request, e.g. 30s, 2m (default: resolve.timeout)")
      ->type_name("DUR");
  app->add_option("--progress", flags.progress,
                  "Show a progress line while images are resolved: auto (when stderr is a "
                  "terminal), always or never")
      ->type_name("WHEN")
      ->check(CLI::IsMember({"auto", "always", "never"}));
}

void add_input_flags(CLI::App* app, CommonFlags& flags) {
  app->add_flag("--follow-symlinks", flags.follow_symlinks,
                "Also take files a directory reaches through a symbolic link that leads out of "
                "it (fix writes them)");
}

}  // namespace archfit::cli
