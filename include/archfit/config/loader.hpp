// Where archfit's settings come from and which one wins: flags, then ARCHFIT_*
// environment variables, then the configuration file, then the defaults
// (docs/configuration.md). Subcommands register the common flags with
// add_common_flags, then call load_config once before reading manifests.
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <archfit/cache/lock_file.hpp>
#include <archfit/placement/config.hpp>
#include <archfit/resolve/settings.hpp>
#include <archfit/yaml/node.hpp>

namespace archfit::config {

// The flags every subcommand that reads manifests shares. Unset = not given.
struct CommonFlags {
  std::optional<std::string> config;       // --config FILE
  std::optional<std::string> lock;         // --lock FILE
  std::optional<std::string> cache_dir;    // --cache-dir DIR
  std::optional<bool> offline;             // --offline / --no-offline
  std::optional<std::string> platforms;    // --platforms linux/amd64,linux/arm64
  std::optional<std::string> concurrency;  // --concurrency N (checked by load_config)
  std::optional<std::string> timeout;      // --timeout DUR
  std::optional<std::string> progress;     // --progress auto|always|never (not configuration)
  bool follow_symlinks = false;            // --follow-symlinks (commands that read manifests)
  // --stdin-dir DIR: where standard input's configuration and lock file are
  // looked for, as if it were a file there (default: the working directory).
  std::optional<std::string> stdin_dir;
};

// Reads one environment variable; nullopt when unset. A seam so that tests
// need not touch the process environment.
using Environment = std::function<std::optional<std::string>(const std::string& name)>;
Environment process_environment();                                            // getenv
Environment fixed_environment(std::map<std::string, std::string> variables);  // for tests

// The ARCHFIT_* variables, for --help texts and the documentation test.
struct EnvironmentVariable {
  std::string_view name;     // "ARCHFIT_PLATFORMS"
  std::string_view setting;  // "clusterPlatforms"
  std::string_view flag;     // "--platforms"; "" when there is none
};
const std::vector<EnvironmentVariable>& environment_variables();

struct ConfigRequest {
  CommonFlags flags;
  // Where the search for .archfit.yaml starts and where the lock file is
  // looked for when there is no config file; "" = the working directory.
  // See discovery_start().
  std::filesystem::path start_dir;
  Environment env = process_environment();
  // A KRM function's functionConfig (kind ArchFit, or a ConfigMap's data):
  // read as the configuration file would be, instead of one; flags and
  // ARCHFIT_* variables still override it.
  yaml::NodeRef function_config = {};
  // The command runs where nobody reads its warnings ("post-render", "a KRM
  // function"): see unattended_reason().
  std::string unattended;
};

// The top-level configuration: placement's and resolve's settings side by
// side, and where they came from.
struct LoadedConfig {
  placement::Config config;
  resolve::Settings resolve;
  std::filesystem::path config_file;  // "" when only defaults (and overrides) apply
  std::filesystem::path lock_file;
  bool lock_explicit = false;       // from --lock or ARCHFIT_LOCK: it must exist to be read
  std::string lock_source;          // "--lock", "ARCHFIT_LOCK", "beside the configuration file"...
  std::string lock_content;         // the lock itself, from a functionConfig ("" otherwise)
  std::filesystem::path cache_dir;  // "" when no directory could be determined (no HOME)
  bool offline = false;
  // Something says what to do with an image that cannot be resolved:
  // resolve.onUnresolved or resolve.fallbackPlatforms (a file, a flag, a
  // variable), or the run is unattended. Otherwise a run that resolves none
  // of its images checked nothing and fails (cli's checked_nothing).
  bool unresolved_decided = false;
  // The repository the configuration file and the lock file were found in
  // (the directory holding .git), each "" when it was named (a flag, a
  // variable) or found outside one: what a repository holds is read inside
  // it (base/confined.hpp), and so are the files its configuration names.
  std::filesystem::path config_repository;
  std::filesystem::path lock_repository;
};

// Finds, reads and validates the configuration and applies environment and
// flags. Throws Error(Config) for an invalid file or environment variable and
// an explicit config file that does not exist, Error(Usage) for invalid flags.
//
// Config file: --config, else $ARCHFIT_CONFIG, else the nearest .archfit.yaml
// from start_dir upward, stopping after the first directory that holds .git.
// Lock file: --lock, else $ARCHFIT_LOCK, else a functionConfig's lock, else
// the nearest archfit.lock from start_dir upward (the same stop as for the
// configuration), else archfit.lock beside the configuration file, else
// archfit.lock in start_dir (these two need not exist: `archfit lock` writes
// there). Cache: --cache-dir, else
// $ARCHFIT_CACHE_DIR, else $XDG_CACHE_HOME/archfit, else ~/.cache/archfit.
// Relative resolve paths in a file (caFile, dockerConfig, credentialsDir) are
// relative to that file's directory. A configuration or lock file found in a
// repository is read only inside it, every link resolved inside it, and the
// files a found configuration names must lie there too: Error(Config) when
// one leads out.
//
// resolve.onUnresolved, when neither the file nor ARCHFIT_ON_UNRESOLVED sets
// it, is fail in an unattended run (see unattended_reason) and warn otherwise.
LoadedConfig load_config(const ConfigRequest& request);

// Why a run is unattended, so that an image it cannot resolve must fail it
// rather than warn: the command's own reason (request.unattended), else
// "offline", "CI=true" (CI set to true or 1), "pre-commit" (PRE_COMMIT=1) or
// "Argo CD" (ARGOCD_APP_NAME set); "" for a run someone watches.
std::string unattended_reason(const ConfigRequest& request, bool offline);

// The lock file of a run: empty when an implicit one does not exist; an
// explicit one (--lock, ARCHFIT_LOCK) that does not exist is Error(Config).
// `archfit lock`, which creates the file, should not call this for a missing
// explicit path.
cache::LockFile load_lock_file(const LoadedConfig& loaded);

// Where discovery starts for these PATH arguments: the first PATH if it is a
// directory, else its directory; the working directory for stdin ("-" or none).
std::filesystem::path discovery_start(const std::vector<std::string>& paths);

// One configuration document, validated and completed. `file_name` is used in
// messages. Accepts kind ArchFit, a plain mapping of the keys, or a ConfigMap
// with the keys flat in `data`; an empty document gives the defaults.
// What one configuration document sets: placement's and resolve's settings.
struct Settings {
  placement::Config placement;
  resolve::Settings resolve;
};
Settings parse_config(std::string_view text, const std::string& file_name);
// The same for a node of a tree parsed elsewhere (a KRM functionConfig).
Settings parse_config(yaml::NodeRef root, const std::string& file_name);

}  // namespace archfit::config
