#include <algorithm>
#include <system_error>

#include <archfit/base/confined.hpp>
#include <archfit/base/duration.hpp>
#include <archfit/base/error.hpp>
#include <archfit/base/file.hpp>
#include <archfit/base/text.hpp>
#include <archfit/config/loader.hpp>
#include <archfit/config/schema.hpp>
#include <archfit/yaml/parse.hpp>
#include <archfit/yaml/value.hpp>

namespace fs = std::filesystem;

namespace archfit::config {

namespace {

constexpr const char* kConfigName = ".archfit.yaml";
constexpr const char* kLockName = "archfit.lock";

// One overriding value and where it came from, for messages: a flag is a
// usage error, an environment variable a configuration error.
struct Override {
  std::string text;
  std::string source;  // "--platforms" or "ARCHFIT_PLATFORMS"
  ErrorKind kind = ErrorKind::Config;

  [[noreturn]] void fail(const std::string& problem) const {
    archfit::fail(kind, source + ": " + problem);
  }
};

class Sources {
 public:
  explicit Sources(const ConfigRequest& request) : request_(request) {}

  // An environment variable; set but empty counts as unset.
  std::optional<std::string> env(const std::string& name) const {
    std::optional<std::string> value = request_.env(name);
    if (value && value->empty()) return std::nullopt;
    return value;
  }

  // The flag if given, else the variable.
  std::optional<Override> pick(const std::optional<std::string>& flag, std::string_view flag_name,
                               const std::string& variable) const {
    if (flag) return Override{*flag, std::string(flag_name), ErrorKind::Usage};
    if (auto value = env(variable)) return Override{*value, variable, ErrorKind::Config};
    return std::nullopt;
  }

 private:
  const ConfigRequest& request_;
};

fs::path absolute_start(const fs::path& start_dir) {
  std::error_code ec;
  fs::path dir = start_dir.empty() ? fs::current_path(ec) : fs::absolute(start_dir, ec);
  return dir.lexically_normal();
}

// The nearest file `name` (.archfit.yaml, archfit.lock) from `dir` upward;
// the search ends after the first directory that holds .git (a file in
// worktrees and submodules), so a file outside the repository never applies
// to it. Also that directory, when there is one: the repository the file
// belongs to. A name there that is a link counts as found, wherever it
// leads: it is refused when read, never passed over for one further up.
struct Found {
  fs::path file;
  fs::path repository;
};

Found discover(const fs::path& start, const char* name) {
  std::error_code ec;
  Found out;
  for (fs::path dir = start;; dir = dir.parent_path()) {
    fs::path candidate = dir / name;
    if (out.file.empty() && fs::symlink_status(candidate, ec).type() != fs::file_type::not_found &&
        !fs::is_directory(fs::symlink_status(candidate, ec))) {
      out.file = candidate;
    }
    if (fs::exists(dir / ".git", ec)) {
      out.repository = dir.has_filename() ? dir : dir.parent_path();  // "repo/" -> "repo"
      return out;
    }
    if (dir == dir.parent_path() || dir.empty()) return out;
  }
}

// A path a found configuration names (resolve.caFile, ...), inside its
// repository: where it leads, every link resolved there. Refused when it
// leads out; left as it is when it does not exist (what reads it says so).
void confine_named(std::string& path, const fs::path& repository, std::string_view key,
                   bool directory) {
  if (path.empty() || repository.empty()) return;
  std::error_code ec;
  if (!fs::exists(fs::symlink_status(path, ec))) return;
  try {
    path = resolve_confined(repository, path, directory).string();
  } catch (const Error& e) {
    throw Error(ErrorKind::Config, std::string(key) + ": " + e.message());
  }
}

std::string display(const fs::path& path, const fs::path& start_dir) {
  // Relative when the caller started from a relative directory, as users
  // type paths; worked out on the names alone, a link left as it is.
  if (!start_dir.empty() && start_dir.is_relative()) {
    std::error_code ec;
    fs::path rel = path.lexically_proximate(fs::current_path(ec));
    if (!ec && !rel.empty()) return rel.string();
  }
  return path.string();
}

ParsedConfig read_file_config(const fs::path& path, const fs::path& repository) {
  std::string text;
  try {
    const ReadLimit limit{kMaxSettingsBytes, "a configuration file"};
    text = repository.empty() ? read_file(path, limit) : read_confined(repository, path, limit);
  } catch (const Error& e) {
    throw Error(ErrorKind::Config, e.message(), e.where());
  }
  yaml::Tree tree;
  try {
    tree = yaml::parse_document(text);
  } catch (const Error& e) {
    throw Error(ErrorKind::Config, e.message(), e.in_file(path.string()).where());
  }
  ConfigDocument doc(path.string());
  ParsedConfig parsed;
  read_config_document(tree.root(), doc, parsed);
  return parsed;
}

void rebase(std::string& path, const fs::path& dir) {
  if (!path.empty() && fs::path(path).is_relative())
    path = (dir / path).lexically_normal().string();
}

// A flag's or variable's text set through the key table, read as a
// ConfigMap's string value is: the same rules and the same messages as in a
// file, named after the flag or variable.
void set_key(const Override& o, std::string_view key, ParsedConfig& parsed) {
  const std::string json = yaml::to_json(yaml::Value::string(o.text));  // the tree points into it
  yaml::Tree tree = yaml::parse_document(json);
  ConfigDocument doc("");
  Origin origin;
  origin.exact = false;
  Field field(tree.root(), &origin, &doc, o.source, /*flat=*/true);
  const KeySpec* spec = find_key(key);
  if (spec == nullptr) fail(ErrorKind::Internal, "no configuration key " + std::string(key));
  try {
    spec->set(field, parsed);
  } catch (const Error& e) {
    if (e.kind() == ErrorKind::Internal) throw;
    archfit::fail(o.kind, e.message());
  }
}

// Overrides from flags and environment, in the order of the table in
// docs/configuration.md, each through the key table. Returns whether
// clusterPlatforms was overridden.
bool apply_overrides(const ConfigRequest& request, const Sources& sources, ParsedConfig& parsed) {
  const CommonFlags& f = request.flags;
  struct Binding {
    const std::optional<std::string>* flag;
    std::string_view flag_name;
    std::string variable;
    std::string_view key;
  };
  const std::optional<std::string> none;
  const Binding bindings[] = {
      {&f.platforms, "--platforms", "ARCHFIT_PLATFORMS", "clusterPlatforms"},
      {&none, "", "ARCHFIT_MODE", "placement.mode"},
      {&none, "", "ARCHFIT_ON_UNRESOLVED", "resolve.onUnresolved"},
      {&f.concurrency, "--concurrency", "ARCHFIT_CONCURRENCY", "resolve.concurrency"},
      {&f.timeout, "--timeout", "ARCHFIT_TIMEOUT", "resolve.timeout"},
  };
  bool platforms_overridden = false;
  for (const Binding& b : bindings) {
    if (auto o = sources.pick(*b.flag, b.flag_name, b.variable)) {
      set_key(*o, b.key, parsed);
      if (b.key == "clusterPlatforms") platforms_overridden = true;
    }
  }
  return platforms_overridden;
}

bool read_offline(const ConfigRequest& request, const Sources& sources) {
  if (request.flags.offline) return *request.flags.offline;
  std::optional<std::string> value = sources.env("ARCHFIT_OFFLINE");
  if (!value) return false;
  std::string_view text = trim(*value);
  if (text == "1") return true;
  if (text == "0") return false;
  if (std::optional<bool> word = bool_word(text)) return *word;
  fail(ErrorKind::Config,
       "ARCHFIT_OFFLINE: expected true or false (or 1 or 0), got " + archfit::quoted(*value));
}

fs::path cache_dir(const ConfigRequest& request, const Sources& sources) {
  if (auto o = sources.pick(request.flags.cache_dir, "--cache-dir", "ARCHFIT_CACHE_DIR")) {
    if (o->text.empty()) o->fail("empty path; name a directory");
    return o->text;
  }
  // The XDG base directory spec says to ignore a relative XDG_CACHE_HOME.
  if (auto xdg = sources.env("XDG_CACHE_HOME"); xdg && fs::path(*xdg).is_absolute()) {
    return fs::path(*xdg) / "archfit";
  }
  if (auto home = sources.env("HOME")) return fs::path(*home) / ".cache" / "archfit";
  return {};
}

}  // namespace

LoadedConfig load_config(const ConfigRequest& request) {
  Sources sources(request);
  LoadedConfig out;
  fs::path start = absolute_start(request.start_dir);

  std::optional<Override> named = sources.pick(request.flags.config, "--config", "ARCHFIT_CONFIG");
  std::error_code ec;
  ParsedConfig parsed;
  if (request.function_config) {
    ConfigDocument doc("functionConfig");
    parsed.function_config = true;
    read_config_document(request.function_config, doc, parsed);
  } else if (named) {
    if (named->text.empty()) named->fail("empty path; name a configuration file");
    out.config_file = named->text;
    if (!fs::exists(out.config_file, ec)) {
      fail(named->kind, named->source + ": configuration file " + archfit::quoted(named->text) +
                            " does not exist; check the path, or leave " + named->source +
                            " out to use the nearest " + kConfigName);
    }
  }
  // What is read: the path as found, absolute.
  fs::path config_read = out.config_file;
  if (out.config_file.empty() && !request.function_config) {
    if (Found found = discover(start, kConfigName); !found.file.empty()) {
      out.config_file = display(found.file, request.start_dir);
      out.config_repository = found.repository;
      config_read = found.file;
    }
  }

  if (!out.config_file.empty()) {
    parsed = read_file_config(config_read, out.config_repository);
    fs::path dir = out.config_file.parent_path();
    rebase(parsed.resolve.ca_file, dir);
    rebase(parsed.resolve.docker_config, dir);
    rebase(parsed.resolve.credentials_dir, dir);
    const fs::path& repo = out.config_repository;
    confine_named(parsed.resolve.ca_file, repo, "resolve.caFile", false);
    confine_named(parsed.resolve.docker_config, repo, "resolve.dockerConfig", false);
    confine_named(parsed.resolve.credentials_dir, repo, "resolve.credentialsDir", true);
  }
  std::optional<std::string> function_lock_path = parsed.lock_path;
  std::string function_lock_content = parsed.lock_content.value_or("");
  bool platforms_overridden = apply_overrides(request, sources, parsed);
  out.offline = read_offline(request, sources);
  // Assumed platforms are an answer for unresolved images too.
  out.unresolved_decided = parsed.sets_on_unresolved || !parsed.config.fallback_platforms.empty();
  if (!out.unresolved_decided) {
    parsed.config.unattended = unattended_reason(request, out.offline);
    if (!parsed.config.unattended.empty()) {
      parsed.config.on_unresolved = placement::OnUnresolved::Fail;
      out.unresolved_decided = true;
    }
  }
  if (out.offline) {
    parsed.config.unresolved_hint =
        "add it to the lock file with archfit lock --set IMAGE=PLATFORMS, which needs no "
        "registry (or archfit images --format lock > archfit.lock, then fill in the platforms), "
        "or set resolve.fallbackPlatforms";
  }
  out.resolve = parsed.resolve;
  out.config = finish_config(std::move(parsed), platforms_overridden);

  if (auto o = sources.pick(request.flags.lock, "--lock", "ARCHFIT_LOCK")) {
    if (o->text.empty()) o->fail("empty path; name a lock file");
    out.lock_file = o->text;
    out.lock_explicit = true;
    out.lock_source = o->source;
  } else if (function_lock_path) {
    out.lock_file = *function_lock_path;
    out.lock_explicit = true;
    out.lock_source = "the functionConfig's lock";
  } else if (!function_lock_content.empty()) {
    out.lock_content = std::move(function_lock_content);
    out.lock_source = "the functionConfig's lock";
  } else if (Found found = discover(start, kLockName); !found.file.empty()) {
    out.lock_repository = found.repository;
    out.lock_file = display(found.file, request.start_dir);
    out.lock_source = "the nearest archfit.lock";
  } else if (!out.config_file.empty()) {
    out.lock_file = out.config_file.parent_path() / kLockName;
    out.lock_source = "beside the configuration file";
    out.lock_repository = out.config_repository;
  } else {
    out.lock_file = request.start_dir.empty() ? fs::path(kLockName) : request.start_dir / kLockName;
    out.lock_source = "in the start directory";
  }
  out.cache_dir = cache_dir(request, sources);
  return out;
}

std::string unattended_reason(const ConfigRequest& request, bool offline) {
  if (!request.unattended.empty()) return request.unattended;
  if (offline) return "offline";
  Sources sources(request);
  if (auto ci = sources.env("CI")) {
    std::string_view text = trim(*ci);
    if (text == "1" || bool_word(text).value_or(false)) return "CI=" + std::string(text);
  }
  if (sources.env("PRE_COMMIT") == std::optional<std::string>("1")) return "pre-commit";
  if (sources.env("ARGOCD_APP_NAME")) return "Argo CD";
  return "";
}

cache::LockFile load_lock_file(const LoadedConfig& loaded) {
  if (!loaded.lock_content.empty())
    return cache::LockFile::parse(loaded.lock_content, "functionConfig.lock");
  std::error_code ec;
  if (!loaded.lock_repository.empty() &&
      fs::symlink_status(loaded.lock_file, ec).type() != fs::file_type::not_found) {
    // Found in a repository: read inside it.
    const ReadLimit limit{kMaxLockBytes, "a lock file"};
    return cache::LockFile::parse(read_confined(loaded.lock_repository, loaded.lock_file, limit),
                                  loaded.lock_file.string());
  }
  if (!fs::exists(loaded.lock_file, ec)) {
    if (!loaded.lock_explicit) return {};
    fail(ErrorKind::Config, loaded.lock_source + ": lock file " +
                                archfit::quoted(loaded.lock_file.string()) +
                                " does not exist; check the path, or write it with `archfit lock` "
                                "(without a registry: `archfit lock --set IMAGE=PLATFORMS`)");
  }
  return cache::LockFile::load(loaded.lock_file);
}

fs::path discovery_start(const std::vector<std::string>& paths) {
  std::error_code ec;
  for (const std::string& p : paths) {
    if (p == "-") break;
    if (fs::is_directory(p, ec)) return p;
    fs::path parent = fs::path(p).parent_path();
    return parent.empty() ? fs::current_path(ec) : parent;
  }
  return fs::current_path(ec);
}

}  // namespace archfit::config
