#include "cli/run_setup.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <ostream>
#include <string_view>
#include <unistd.h>
#include <utility>

#include <archfit/base/error.hpp>
#include <archfit/base/text.hpp>

#include "cli/commands.hpp"
#include "cli/shown.hpp"

namespace archfit::cli {

namespace {

// --progress: a line redrawn in place on a terminal; on anything else (a CI
// log) a whole line every few seconds, unless `never`.
resolve::ProgressOptions progress_options(const std::string& mode) {
  resolve::ProgressOptions out;
  if (mode == "never") return out;
  out.out = &std::cerr;
  out.log_lines = mode == "auto" && !::isatty(STDERR_FILENO);
  return out;
}

std::string human_bytes(std::uint64_t bytes) {
  char text[32];
  if (bytes < 1024) {
    std::snprintf(text, sizeof text, "%llu B", static_cast<unsigned long long>(bytes));
  } else if (bytes < 1024 * 1024) {
    std::snprintf(text, sizeof text, "%.1f KiB", static_cast<double>(bytes) / 1024);
  } else {
    std::snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(bytes) / (1024 * 1024));
  }
  return text;
}

// A resolver over a loaded configuration's lock file, with the cache and (when
// online) a network of its own settings.
std::unique_ptr<resolve::Resolver> make_resolver(const config::LoadedConfig& loaded,
                                                 cache::Store* cache, bool use_lock, bool verbose,
                                                 std::unique_ptr<Network>& network) {
  cache::LockFile lock;
  if (use_lock) lock = config::load_lock_file(loaded);
  std::string lock_name =
      lock.size() > 0 || loaded.lock_explicit ? loaded.lock_file.string() : std::string();
  resolve::Sources sources;
  sources.use_lock = use_lock;
  sources.offline = loaded.offline;
  sources.cache = cache;
  if (!loaded.offline) {
    network = std::make_unique<Network>(loaded.resolve, verbose);
    sources.connect = [n = network.get()]() -> registry::Client& { return n->client(); };
  }
  return std::make_unique<resolve::Resolver>(loaded.resolve, std::move(lock), std::move(lock_name),
                                             std::move(sources));
}

std::filesystem::path canonical_or_empty(const std::filesystem::path& p) {
  if (p.empty()) return p;
  std::error_code ec;
  std::filesystem::path c = std::filesystem::weakly_canonical(p, ec);
  return ec ? p : c;
}

// What makes two configurations the same: the configuration file and the lock
// file that exists (an implicit lock that does not is none).
using SettingKey = std::pair<std::filesystem::path, std::filesystem::path>;
SettingKey key_of(const config::LoadedConfig& loaded) {
  std::error_code ec;
  bool lock = !loaded.lock_file.empty() &&
              (loaded.lock_explicit || std::filesystem::exists(loaded.lock_file, ec));
  return {canonical_or_empty(loaded.config_file),
          lock ? canonical_or_empty(loaded.lock_file) : std::filesystem::path()};
}

// Gives each input the configuration and lock file nearest to it: the
// .archfit.yaml and the archfit.lock found upward from its directory, as for
// the first PATH. An input whose pair is the first PATH's uses setting 0.
void assign_configurations(RunSetup& setup, const config::ConfigRequest& base, bool verbose,
                           const std::filesystem::path& stdin_dir) {
  std::map<std::filesystem::path, std::size_t> by_dir;  // a file's directory -> setting
  std::map<SettingKey, std::size_t> by_files;
  by_files[key_of(setup.loaded)] = 0;
  for (const manifest::InputFile& input : setup.inputs) {
    std::filesystem::path dir = input.is_stdin ? stdin_dir : input.path.parent_path();
    if (dir.empty()) dir = ".";
    auto known = by_dir.find(dir);
    if (known != by_dir.end()) {
      setup.setting_of.push_back(known->second);
      continue;
    }
    config::ConfigRequest request = base;
    request.start_dir = dir;
    config::LoadedConfig loaded = config::load_config(request);
    auto [it, added] = by_files.try_emplace(key_of(loaded), setup.others.size() + 1);
    if (added) {
      auto found = std::make_unique<FoundConfig>();
      found->loaded = std::move(loaded);
      found->resolver =
          make_resolver(found->loaded, setup.cache.get(), true, verbose, found->network);
      setup.others.push_back(std::move(found));
    }
    by_dir[dir] = it->second;
    setup.setting_of.push_back(it->second);
  }
}

// "archfit: deploy/prom.yaml: configuration .archfit.yaml; lock file
// deploy/archfit.lock (the nearest archfit.lock)", for each input (-v).
void explain_settings(std::ostream& out, const RunSetup& setup) {
  auto describe = [&](const config::LoadedConfig& c) {
    std::string text = "configuration " + (c.config_file.empty() ? std::string("none (defaults)")
                                                                 : c.config_file.string());
    std::error_code ec;
    if (!c.lock_content.empty()) {
      text += "; lock file " + c.lock_source;
    } else if (c.lock_explicit || std::filesystem::exists(c.lock_file, ec)) {
      text += "; lock file " + c.lock_file.string() + " (" + c.lock_source + ")";
    } else {
      text += "; no lock file";
    }
    return text;
  };
  if (setup.inputs.empty()) {
    out << "archfit: " << shown(describe(setup.loaded)) << '\n';
    return;
  }
  for (std::size_t i = 0; i < setup.inputs.size(); ++i) {
    std::size_t k = i < setup.setting_of.size() ? setup.setting_of[i] : 0;
    const config::LoadedConfig& c = k == 0 ? setup.loaded : setup.others[k - 1]->loaded;
    out << "archfit: " << shown(setup.inputs[i].name) << ": " << shown(describe(c)) << '\n';
  }
}

}  // namespace

std::vector<run::Setting> RunSetup::settings() const {
  std::vector<run::Setting> out{run::Setting{&loaded.config, resolver.get()}};
  for (const auto& other : others)
    out.push_back(run::Setting{&other->loaded.config, other->resolver.get()});
  return out;
}

resolve::Stats RunSetup::stats() const {
  resolve::Stats total = resolver->stats();
  for (const auto& other : others) {
    resolve::Stats s = other->resolver->stats();
    total.images += s.images;
    total.from_lock += s.from_lock;
    total.from_cache += s.from_cache;
    total.from_registry += s.from_registry;
    total.failed += s.failed;
    total.requests += s.requests;
    total.heads += s.heads;
    total.gets += s.gets;
    total.bytes += s.bytes;
    total.seconds += s.seconds;
  }
  return total;
}

std::vector<run::Input> RunSetup::run_inputs() const {
  std::vector<run::Input> out = run::inputs_of(inputs);
  for (std::size_t i = 0; i < out.size() && i < setting_of.size(); ++i)
    out[i].setting = setting_of[i];
  return out;
}

RunSetup prepare_run(const std::vector<std::string>& paths, const CommonFlags& flags,
                     const SetupOptions& options) {
  RunSetup setup;
  if (options.read_inputs) {
    if (paths.empty() && ::isatty(STDIN_FILENO)) {
      fail(ErrorKind::Usage,
           "no input: give files or directories, or pipe manifests to standard input ('-')");
    }
    manifest::Inputs inputs =
        manifest::collect_inputs(paths, manifest::InputOptions{flags.follow_symlinks});
    for (const std::string& skipped : inputs.skipped)
      std::cerr << "archfit: " << shown(skipped) << '\n';
    setup.inputs = std::move(inputs.files);
  }
  config::ConfigRequest request;
  request.flags = flags;
  request.function_config = options.function_config;
  request.unattended = options.unattended;
  // Standard input is a file in --stdin-dir, or in the working directory.
  std::filesystem::path stdin_dir = flags.stdin_dir.value_or("");
  if (flags.stdin_dir && flags.stdin_dir->empty())
    fail(ErrorKind::Usage, "--stdin-dir: empty path; name a directory");
  std::error_code ec;
  if (!stdin_dir.empty() && !std::filesystem::is_directory(stdin_dir, ec)) {
    fail(ErrorKind::Usage,
         "--stdin-dir: " + archfit::quoted(stdin_dir.string()) + " is not a directory");
  }
  bool from_stdin = paths.empty() || paths.front() == "-";
  request.start_dir =
      !options.read_inputs || from_stdin ? stdin_dir : config::discovery_start(paths);
  setup.loaded = config::load_config(request);
  if (!setup.loaded.cache_dir.empty()) {
    setup.cache = std::make_unique<cache::Store>(setup.loaded.cache_dir);
  }
  setup.resolver = make_resolver(setup.loaded, setup.cache.get(), options.use_lock, options.verbose,
                                 setup.network);
  if (options.read_inputs && options.config_per_file) {
    assign_configurations(setup, request, options.verbose, stdin_dir);
  }
  setup.run_options.progress = progress_options(flags.progress.value_or("auto"));
  setup.run_options.features = setup.features->list();
  if (options.verbose) explain_settings(std::cerr, setup);
  return setup;
}

void print_notices(std::ostream& out, const run::RunResult& run) {
  for (const std::string& w : run.warnings)
    out << shown(w) << '\n';
  constexpr std::size_t kNamed = 10;
  std::size_t others = 0;
  for (const run::FileResult& file : run.files) {
    if (file.documents == 0 || file.objects > 0) continue;
    if (++others > kNamed) continue;
    out << "archfit: skipped " << shown(file.input.name)
        << ": not a Kubernetes manifest (no document has apiVersion and kind)\n";
  }
  if (others > kNamed) {
    out << "archfit: skipped " << others - kNamed
        << " more files that are not Kubernetes manifests\n";
  }
}

void print_resolution_summary(std::ostream& out, const resolve::Stats& s) {
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.2f", s.seconds);
  out << "archfit: " << s.images << " images: " << s.from_lock << " from the lock file, "
      << s.from_cache << " from the cache, " << s.from_registry << " from registries, " << s.failed
      << " failed; " << s.requests << " requests (" << s.heads << " HEAD, " << s.gets << " GET), "
      << human_bytes(s.bytes) << " in " << seconds << " s\n";
}

void print_resolved(std::ostream& out, const resolve::Stats& s) {
  if (s.images == 0) {
    out << "archfit: no images to resolve\n";
    return;
  }
  out << "archfit: " << s.from_lock + s.from_cache + s.from_registry << " of " << s.images
      << " image" << (s.images == 1 ? "" : "s") << " resolved (" << s.from_lock
      << " from the lock file, " << s.from_cache << " from the cache, " << s.from_registry
      << " from registries)\n";
}

std::string checked_nothing(const RunSetup& setup) {
  resolve::Stats s = setup.stats();
  if (s.images == 0 || s.from_lock + s.from_cache + s.from_registry > 0) return "";
  if (setup.loaded.unresolved_decided) return "";
  for (const auto& other : setup.others)
    if (other->loaded.unresolved_decided) return "";
  constexpr std::size_t kMost = 8;
  std::vector<std::string> names = setup.resolver->unresolved(kMost);
  for (const auto& other : setup.others) {
    for (std::string& name : other->resolver->unresolved(kMost))
      names.push_back(std::move(name));
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  bool all = names.size() == s.images && names.size() <= kMost;
  if (names.size() > kMost) names.resize(kMost);
  std::string set;
  for (const std::string& name : names)
    set += " " + shown(name) + "=PLATFORMS";
  std::string out =
      (s.images == 1
           ? std::string("archfit: the image could not be resolved")
           : "archfit: none of the " + std::to_string(s.images) + " images could be resolved") +
      ", so nothing was checked. Without a registry, write " + (s.images == 1 ? "its" : "their") +
      " platforms (e.g. linux/amd64,linux/arm64) into the lock file:\n"
      "  archfit lock --set" +
      set + (all ? "" : " ...") +
      "\n  or: archfit images --format lock > archfit.lock, then fill in the "
      "platforms\nor set resolve.fallbackPlatforms, or resolve.onUnresolved: warn "
      "to pass without them (docs/configuration.md)";
  return out;
}

void require_files_after_separator(const RunState& state) {
  const char* pre_commit = std::getenv("PRE_COMMIT");
  if (state.separator || pre_commit == nullptr || std::string_view(pre_commit) != "1") return;
  fail(ErrorKind::Usage,
       "under pre-commit, file names must follow \"--\", so that a file named like an option is "
       "not taken for one: the archfit hooks' args default to [--]; args of your own must end "
       "with --, e.g. args: [--fail-on=warning, --]");
}

}  // namespace archfit::cli
