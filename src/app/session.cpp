#include <algorithm>
#include <map>
#include <unistd.h>
#include <utility>

#include <archfit/app/session.hpp>
#include <archfit/base/error.hpp>
#include <archfit/base/text.hpp>
#include <archfit/base/untrusted.hpp>
#include <archfit/edit/document.hpp>

namespace archfit::app {

namespace {

std::string shown(std::string_view text) {
  return for_terminal(Untrusted(text));
}

// --progress: a line redrawn in place on a terminal; on anything else (a CI
// log) a whole line every few seconds, unless `never`.
resolve::ProgressOptions progress_options(const std::string& mode, std::ostream& err) {
  resolve::ProgressOptions out;
  if (mode == "never") return out;
  out.out = &err;
  out.log_lines = mode == "auto" && !::isatty(STDERR_FILENO);
  return out;
}

// A resolver over a loaded configuration's lock file, with the cache and (when
// online) a network of its own settings.
std::unique_ptr<resolve::Resolver> make_resolver(const config::LoadedConfig& loaded,
                                                 cache::Store* cache, bool use_lock,
                                                 std::ostream* log,
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
    network = std::make_unique<Network>(loaded.resolve, log);
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

void add(resolve::Stats& total, const resolve::Stats& s) {
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

}  // namespace

// A configuration found near some input files, and what answers for its
// lock file.
struct Session::Other {
  config::LoadedConfig loaded;
  std::unique_ptr<Network> network;  // null when offline
  std::unique_ptr<resolve::Resolver> resolver;
};

ExitCode Outcome::exit(bool failing) const {
  if (run.unresolved_failure || !checked_nothing.empty()) return kUnresolved;
  return failing || run.faults > 0 ? kChangesOrFindings : kOk;
}

Session::Session(Request request, std::ostream& err) : request_(std::move(request)), err_(err) {
  // The tests set this: edits verified with a grafted tree are checked
  // against a parse of the whole edited document as well.
  if (request_.env("ARCHFIT_CHECK_GRAFTS") == "1") edit::check_grafts_against_parse(true);
  const config::CommonFlags& flags = request_.flags;
  const bool from_stream = request_.stream.has_value();
  if (request_.read_inputs && !from_stream) {
    if (request_.paths.empty() && ::isatty(STDIN_FILENO)) {
      fail(ErrorKind::Usage,
           "no input: give files or directories, or pipe manifests to standard input ('-')");
    }
    manifest::Inputs inputs =
        manifest::collect_inputs(request_.paths, manifest::InputOptions{flags.follow_symlinks});
    for (const std::string& skipped : inputs.skipped)
      err_ << "archfit: " << shown(skipped) << '\n';
    inputs_ = std::move(inputs.files);
  } else if (from_stream) {
    inputs_.push_back(manifest::InputFile{request_.stream->name, {}, request_.stream->is_stdin});
  }
  config::ConfigRequest config;
  config.flags = flags;
  config.env = request_.env;
  config.function_config = request_.function_config;
  config.unattended = request_.unattended;
  // Standard input is a file in --stdin-dir, or in the working directory.
  std::filesystem::path stdin_dir = flags.stdin_dir.value_or("");
  if (flags.stdin_dir && flags.stdin_dir->empty())
    fail(ErrorKind::Usage, "--stdin-dir: empty path; name a directory");
  std::error_code ec;
  if (!stdin_dir.empty() && !std::filesystem::is_directory(stdin_dir, ec)) {
    fail(ErrorKind::Usage,
         "--stdin-dir: " + archfit::quoted(stdin_dir.string()) + " is not a directory");
  }
  const bool from_stdin = from_stream || request_.paths.empty() || request_.paths.front() == "-";
  config.start_dir =
      !request_.read_inputs || from_stdin ? stdin_dir : config::discovery_start(request_.paths);
  loaded_ = config::load_config(config);
  if (!loaded_.cache_dir.empty()) cache_ = std::make_unique<cache::Store>(loaded_.cache_dir);
  std::ostream* log = request_.verbose ? &err_ : nullptr;
  resolver_ = make_resolver(loaded_, cache_.get(), request_.use_lock, log, network_);
  if (request_.read_inputs && request_.config_per_file) assign_configurations(config, stdin_dir);
  options_.progress = progress_options(flags.progress.value_or("auto"), err_);
  features_.with_readiness = request_.readiness;
  options_.features = features_.list();
  options_.report_everything = request_.report_everything;
  options_.split = request_.split;
  if (request_.verbose) explain_settings();
}

Session::~Session() = default;

// Gives each input the configuration and lock file nearest to it: the
// .archfit.yaml and the archfit.lock found upward from its directory, as for
// the first PATH. An input whose pair is the first PATH's uses setting 0.
void Session::assign_configurations(const config::ConfigRequest& base,
                                    const std::filesystem::path& stdin_dir) {
  std::map<std::filesystem::path, std::size_t> by_dir;  // a file's directory -> setting
  std::map<SettingKey, std::size_t> by_files;
  by_files[key_of(loaded_)] = 0;
  std::ostream* log = request_.verbose ? &err_ : nullptr;
  for (const manifest::InputFile& input : inputs_) {
    std::filesystem::path dir = input.is_stdin ? stdin_dir : input.path.parent_path();
    if (dir.empty()) dir = ".";
    auto known = by_dir.find(dir);
    if (known != by_dir.end()) {
      setting_of_.push_back(known->second);
      continue;
    }
    config::ConfigRequest request = base;
    request.start_dir = dir;
    config::LoadedConfig loaded = config::load_config(request);
    auto [it, added] = by_files.try_emplace(key_of(loaded), others_.size() + 1);
    if (added) {
      auto found = std::make_unique<Other>();
      found->loaded = std::move(loaded);
      found->resolver =
          make_resolver(found->loaded, cache_.get(), request_.use_lock, log, found->network);
      others_.push_back(std::move(found));
    }
    by_dir[dir] = it->second;
    setting_of_.push_back(it->second);
  }
}

// "archfit: deploy/prom.yaml: configuration .archfit.yaml; lock file
// deploy/archfit.lock (the nearest archfit.lock)", for each input (-v).
void Session::explain_settings() const {
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
  if (inputs_.empty()) {
    err_ << "archfit: " << shown(describe(loaded_)) << '\n';
    return;
  }
  for (std::size_t i = 0; i < inputs_.size(); ++i) {
    std::size_t k = i < setting_of_.size() ? setting_of_[i] : 0;
    const config::LoadedConfig& c = k == 0 ? loaded_ : others_[k - 1]->loaded;
    err_ << "archfit: " << shown(inputs_[i].name) << ": " << shown(describe(c)) << '\n';
  }
}

const config::LoadedConfig& Session::loaded(std::size_t k) const {
  return k == 0 ? loaded_ : others_.at(k - 1)->loaded;
}

resolve::Resolver& Session::resolver(std::size_t k) {
  return k == 0 ? *resolver_ : *others_.at(k - 1)->resolver;
}

std::vector<run::Setting> Session::settings() const {
  std::vector<run::Setting> out{run::Setting{&loaded_.config, resolver_.get()}};
  for (const auto& other : others_)
    out.push_back(run::Setting{&other->loaded.config, other->resolver.get()});
  return out;
}

resolve::Stats Session::stats() const {
  resolve::Stats total = resolver_->stats();
  for (const auto& other : others_)
    add(total, other->resolver->stats());
  return total;
}

std::vector<run::Input> Session::run_inputs() {
  std::vector<run::Input> out;
  if (request_.stream) {
    run::Input input =
        run::Input::in_memory(request_.stream->name, std::move(request_.stream->text));
    input.file.is_stdin = request_.stream->is_stdin;
    out.push_back(std::move(input));
    request_.stream->text.clear();
  } else {
    out = run::inputs_of(inputs_);
  }
  for (std::size_t i = 0; i < out.size() && i < setting_of_.size(); ++i)
    out[i].setting = setting_of_[i];
  return out;
}

Outcome Session::run(const run::RunSink& sink) {
  Outcome outcome;
  outcome.run = run::run_pipeline(run_inputs(), settings(), request_.task, sink, options_);
  outcome.resolution = stats();
  if (request_.task != run::Task::Remove) outcome.checked_nothing = checked_nothing();
  if (request_.readiness) outcome.readiness = features_.readiness.result();
  return outcome;
}

std::string Session::checked_nothing() const {
  resolve::Stats s = stats();
  if (s.images == 0 || s.from_lock + s.from_cache + s.from_registry > 0) return "";
  if (loaded_.unresolved_decided) return "";
  for (const auto& other : others_)
    if (other->loaded.unresolved_decided) return "";
  constexpr std::size_t kMost = 8;
  std::vector<std::string> names = resolver_->unresolved(kMost);
  for (const auto& other : others_) {
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
  return (s.images == 1
              ? std::string("archfit: the image could not be resolved")
              : "archfit: none of the " + std::to_string(s.images) + " images could be resolved") +
         ", so nothing was checked. Without a registry, write " +
         (s.images == 1 ? "its" : "their") +
         " platforms (e.g. linux/amd64,linux/arm64) into the lock file:\n"
         "  archfit lock --set" +
         set + (all ? "" : " ...") +
         "\n  or: archfit images --format lock > archfit.lock, then fill in the "
         "platforms\nor set resolve.fallbackPlatforms, or resolve.onUnresolved: warn "
         "to pass without them (docs/configuration.md)";
}

}  // namespace archfit::app
