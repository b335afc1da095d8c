// Finding the configuration file and applying environment and flags over it:
// flags > ARCHFIT_* environment > file > defaults.
#include <functional>

#include <gtest/gtest.h>

#include <archfit/base/error.hpp>
#include <archfit/config/loader.hpp>

#include "cli/flags.hpp"
#include "support/process.hpp"

namespace archfit::config {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;

// A repository root with .git, so that discovery never looks above the test's directory.
struct Repo {
  TempDir dir;
  Repo() { fs::create_directories(dir / ".git"); }
  fs::path path(const std::string& name) const { return dir / name; }
  fs::path write(const std::string& name, const std::string& text) const {
    return dir.write(name, text);
  }
};

ConfigRequest request(const fs::path& start, std::map<std::string, std::string> env = {}) {
  ConfigRequest r;
  r.start_dir = start;
  r.env = fixed_environment(std::move(env));
  return r;
}

std::string error_of(const ConfigRequest& r, ErrorKind kind = ErrorKind::Config) {
  try {
    load_config(r);
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), kind) << e.what();
    return e.what();
  }
  return "no error";
}

// ---------------------------------------------------------------------------
// Discovery

TEST(LoadConfig, NoFileMeansDefaults) {
  Repo repo;
  LoadedConfig c = load_config(request(repo.dir.path()));
  EXPECT_TRUE(c.config_file.empty());
  EXPECT_EQ(c.config.cluster_platforms.str(), "linux/amd64,linux/arm64");
  EXPECT_EQ(c.config.architectures.size(), 2u);
  EXPECT_EQ(c.lock_file, repo.path("archfit.lock"));
  EXPECT_FALSE(c.lock_explicit);
  EXPECT_FALSE(c.offline);
}

TEST(LoadConfig, FindsTheNearestFileUpward) {
  Repo repo;
  repo.write(".archfit.yaml", "placement: {mode: preferred}\n");
  repo.write("a/b/c/deploy.yaml", "");
  LoadedConfig c = load_config(request(repo.path("a/b/c")));
  EXPECT_EQ(c.config_file, repo.path(".archfit.yaml"));
  EXPECT_EQ(c.config.mode, placement::Mode::Preferred);
  EXPECT_EQ(c.lock_file, repo.path("archfit.lock"));  // beside the config

  repo.write("a/.archfit.yaml", "placement: {mode: nodeSelector}\n");
  c = load_config(request(repo.path("a/b/c")));
  EXPECT_EQ(c.config_file, repo.path("a/.archfit.yaml"));
  EXPECT_EQ(c.config.mode, placement::Mode::NodeSelector);
  EXPECT_EQ(c.lock_file, repo.path("a/archfit.lock"));
}

// The lock is found as the configuration is, on its own: the nearest
// archfit.lock above the start, wherever the configuration is.
TEST(LoadConfig, FindsTheNearestLockUpwardOnItsOwn) {
  Repo repo;
  repo.write(".archfit.yaml", "placement: {mode: preferred}\n");
  repo.write("archfit.lock", "{\"version\": 1, \"images\": {}}\n");
  repo.write("deploy/prod/archfit.lock", "{\"version\": 1, \"images\": {}}\n");
  fs::create_directories(repo.path("deploy/prod/x"));
  LoadedConfig c = load_config(request(repo.path("deploy/prod/x")));
  EXPECT_EQ(c.config_file, repo.path(".archfit.yaml"));
  EXPECT_EQ(c.lock_file, repo.path("deploy/prod/archfit.lock"));
  EXPECT_EQ(c.lock_source, "the nearest archfit.lock");
  c = load_config(request(repo.path("deploy")));
  EXPECT_EQ(c.lock_file, repo.path("archfit.lock"));
  fs::remove(repo.path(".archfit.yaml"));
  c = load_config(request(repo.path("deploy/prod")));
  EXPECT_TRUE(c.config_file.empty());
  EXPECT_EQ(c.lock_file, repo.path("deploy/prod/archfit.lock"));
}

TEST(LoadConfig, StopsAfterTheDirectoryWithGit) {
  Repo outer;
  outer.write(".archfit.yaml", "placement: {mode: preferred}\n");
  fs::create_directories(outer.path("repo/.git"));
  fs::create_directories(outer.path("repo/deploy"));
  LoadedConfig c = load_config(request(outer.path("repo/deploy")));
  EXPECT_TRUE(c.config_file.empty());
  EXPECT_EQ(c.config.mode, placement::Mode::Affinity);
  EXPECT_EQ(c.lock_file, outer.path("repo/deploy/archfit.lock"));  // the start directory

  // The directory holding .git is itself searched; a .git file (worktrees,
  // submodules) stops the search too.
  outer.write("repo/.archfit.yaml", "placement: {mode: nodeSelector}\n");
  EXPECT_EQ(load_config(request(outer.path("repo/deploy"))).config_file,
            outer.path("repo/.archfit.yaml"));
  outer.write("wt/.git", "gitdir: ../repo/.git/worktrees/wt\n");
  fs::create_directories(outer.path("wt/deploy"));
  EXPECT_TRUE(load_config(request(outer.path("wt/deploy"))).config_file.empty());
}

TEST(LoadConfig, ADirectoryNamedLikeTheFileIsSkipped) {
  Repo repo;
  repo.write(".archfit.yaml", "placement: {mode: preferred}\n");
  fs::create_directories(repo.path("a/.archfit.yaml"));
  EXPECT_EQ(load_config(request(repo.path("a"))).config_file, repo.path(".archfit.yaml"));
}

TEST(LoadConfig, InvalidDiscoveredFileIsAnError) {
  Repo repo;
  repo.write(".archfit.yaml", "placement:\n  mode: affinty\n");
  EXPECT_EQ(error_of(request(repo.dir.path())),
            repo.path(".archfit.yaml").string() +
                ":2:9: placement.mode: \"affinty\" is not a mode; use one of affinity, "
                "nodeSelector, preferred, tolerationsOnly (did you mean \"affinity\"?)");
  repo.write(".archfit.yaml", "placement: [\n");
  EXPECT_EQ(error_of(request(repo.dir.path())),
            repo.path(".archfit.yaml").string() +
                ":2:1: cannot parse YAML: did not find expected node content (while parsing a "
                "flow node that starts at line 2, column 1)");
}

TEST(LoadConfig, ExplicitConfigWinsOverEnvironmentAndDiscovery) {
  Repo repo;
  repo.write(".archfit.yaml", "placement: {mode: preferred}\n");
  auto env_file = repo.write("env.yaml", "placement: {mode: nodeSelector}\n");
  auto flag_file = repo.write("flag.yaml", "placement: {mode: tolerationsOnly}\n");
  ConfigRequest r = request(repo.dir.path(), {{"ARCHFIT_CONFIG", env_file.string()}});
  EXPECT_EQ(load_config(r).config.mode, placement::Mode::NodeSelector);
  EXPECT_EQ(load_config(r).config_file, env_file);
  r.flags.config = flag_file.string();
  EXPECT_EQ(load_config(r).config.mode, placement::Mode::TolerationsOnly);
  EXPECT_EQ(load_config(r).lock_file, repo.path("archfit.lock"));
}

TEST(LoadConfig, ExplicitConfigThatDoesNotExistIsAnError) {
  Repo repo;
  ConfigRequest r = request(repo.dir.path(), {{"ARCHFIT_CONFIG", "/nonexistent/archfit.yaml"}});
  EXPECT_EQ(error_of(r),
            "ARCHFIT_CONFIG: configuration file \"/nonexistent/archfit.yaml\" does not exist; "
            "check the path, or leave ARCHFIT_CONFIG out to use the nearest .archfit.yaml");
  r.flags.config = "missing.yaml";
  EXPECT_EQ(error_of(r, ErrorKind::Usage),
            "--config: configuration file \"missing.yaml\" does not exist; check the path, or "
            "leave --config out to use the nearest .archfit.yaml");
}

TEST(LoadConfig, EmptyVariablesAreUnset) {
  Repo repo;
  ConfigRequest r =
      request(repo.dir.path(),
              {{"ARCHFIT_CONFIG", ""}, {"ARCHFIT_CONCURRENCY", ""}, {"ARCHFIT_OFFLINE", ""}});
  LoadedConfig c = load_config(r);
  EXPECT_TRUE(c.config_file.empty());
  EXPECT_EQ(c.resolve.concurrency, 16);
  EXPECT_FALSE(c.offline);
}

TEST(LoadConfig, RelativeResolvePathsAreRelativeToTheFile) {
  Repo repo;
  repo.write("conf/archfit.yaml",
             "resolve: {caFile: certs/ca.pem, dockerConfig: /abs/config.json, "
             "credentialsDir: ../creds}\n");
  ConfigRequest r = request(repo.dir.path());
  r.flags.config = repo.path("conf/archfit.yaml").string();
  LoadedConfig c = load_config(r);
  EXPECT_EQ(c.resolve.ca_file, repo.path("conf/certs/ca.pem").string());
  EXPECT_EQ(c.resolve.docker_config, "/abs/config.json");
  EXPECT_EQ(c.resolve.credentials_dir, repo.path("creds").string());
}

TEST(DiscoveryStart, FirstPathDecides) {
  TempDir dir;
  dir.write("m/deploy.yaml", "");
  std::error_code ec;
  fs::path cwd = fs::current_path(ec);
  EXPECT_EQ(discovery_start({(dir / "m").string()}), dir / "m");
  EXPECT_EQ(discovery_start({(dir / "m/deploy.yaml").string(), "/elsewhere"}), dir / "m");
  EXPECT_EQ(discovery_start({"deploy.yaml"}), cwd);
  EXPECT_EQ(discovery_start({"-"}), cwd);
  EXPECT_EQ(discovery_start({}), cwd);
}

// ---------------------------------------------------------------------------
// Precedence, one row per overridable setting: default, then a file, then
// the environment over the file, then the flag over both.

struct Layered {
  const char* name;
  const char* file;  // YAML setting the value
  const char* variable;
  const char* env_value;
  std::function<void(CommonFlags&)> set_flag;  // null when there is no flag
  std::function<std::string(const LoadedConfig&)> get;
  const char* expected[4];  // default, file, env, flag
};

class Precedence : public ::testing::TestWithParam<Layered> {};

TEST_P(Precedence, FlagsOverEnvironmentOverFileOverDefaults) {
  const Layered& p = GetParam();
  Repo repo;
  EXPECT_EQ(p.get(load_config(request(repo.dir.path()))), p.expected[0]) << "default";
  repo.write(".archfit.yaml", p.file);
  EXPECT_EQ(p.get(load_config(request(repo.dir.path()))), p.expected[1]) << "file";
  ConfigRequest r = request(repo.dir.path(), {{p.variable, p.env_value}});
  EXPECT_EQ(p.get(load_config(r)), p.expected[2]) << "environment";
  if (p.set_flag) {
    p.set_flag(r.flags);
    EXPECT_EQ(p.get(load_config(r)), p.expected[3]) << "flag";
  }
}

std::string mode(const LoadedConfig& c) {
  return std::to_string(static_cast<int>(c.config.mode));
}

INSTANTIATE_TEST_SUITE_P(
    Table, Precedence,
    ::testing::Values(
        Layered{"Platforms",
                "clusterPlatforms: [linux/amd64]\n",
                "ARCHFIT_PLATFORMS",
                "linux/arm64, linux/s390x",
                [](CommonFlags& f) { f.platforms = "linux/ppc64le"; },
                [](const LoadedConfig& c) {
                  std::string archs;
                  for (const auto& [arch, a] : c.config.architectures)
                    archs += "," + arch;
                  return c.config.cluster_platforms.str() + archs;
                },
                {"linux/amd64,linux/arm64,amd64,arm64", "linux/amd64,amd64",
                 "linux/arm64,linux/s390x,arm64,s390x", "linux/ppc64le,ppc64le"}},
        Layered{"Mode",
                "placement: {mode: preferred}\n",
                "ARCHFIT_MODE",
                "nodeSelector",
                nullptr,
                mode,
                {"0", "2", "1", ""}},
        Layered{"OnUnresolved",
                "resolve: {onUnresolved: ignore}\n",
                "ARCHFIT_ON_UNRESOLVED",
                "fail",
                nullptr,
                [](const LoadedConfig& c) {
                  return std::to_string(static_cast<int>(c.config.on_unresolved));
                },
                {"1", "2", "0", ""}},
        Layered{"Concurrency",
                "resolve: {concurrency: 4}\n",
                "ARCHFIT_CONCURRENCY",
                "8",
                [](CommonFlags& f) { f.concurrency = "256"; },
                [](const LoadedConfig& c) { return std::to_string(c.resolve.concurrency); },
                {"16", "4", "8", "256"}},
        Layered{"Timeout",
                "resolve: {timeout: 1m}\n",
                "ARCHFIT_TIMEOUT",
                "2m",
                [](CommonFlags& f) { f.timeout = "5s"; },
                [](const LoadedConfig& c) { return std::to_string(c.resolve.timeout.count()); },
                {"30000", "60000", "120000", "5000"}},
        Layered{"Offline",
                "",
                "ARCHFIT_OFFLINE",
                "1",
                [](CommonFlags& f) { f.offline = false; },
                [](const LoadedConfig& c) { return std::string(c.offline ? "on" : "off"); },
                {"off", "off", "on", "off"}},
        Layered{
            "Lock",
            "",
            "ARCHFIT_LOCK",
            "/env/archfit.lock",
            [](CommonFlags& f) { f.lock = "flag.lock"; },
            [](const LoadedConfig& c) {
              return c.lock_file.filename().string() + (c.lock_explicit ? " explicit " : " ") +
                     c.lock_source;
            },
            {"archfit.lock in the start directory", "archfit.lock beside the configuration file",
             "archfit.lock explicit ARCHFIT_LOCK", "flag.lock explicit --lock"}},
        Layered{"CacheDir",
                "",
                "ARCHFIT_CACHE_DIR",
                "/env/cache",
                [](CommonFlags& f) { f.cache_dir = "/flag/cache"; },
                [](const LoadedConfig& c) { return c.cache_dir.string(); },
                {"", "", "/env/cache", "/flag/cache"}}),
    [](const ::testing::TestParamInfo<Layered>& test) { return std::string(test.param.name); });

TEST(LoadConfig, OfflineFlagAndVariableSpellings) {
  Repo repo;
  for (const char* on : {"1", "true", "yes", "on", "True"}) {
    EXPECT_TRUE(load_config(request(repo.dir.path(), {{"ARCHFIT_OFFLINE", on}})).offline) << on;
  }
  for (const char* off : {"0", "false", "no", "off"}) {
    EXPECT_FALSE(load_config(request(repo.dir.path(), {{"ARCHFIT_OFFLINE", off}})).offline) << off;
  }
  ConfigRequest r = request(repo.dir.path());
  r.flags.offline = true;
  EXPECT_TRUE(load_config(r).offline);
}

TEST(LoadConfig, CacheDirectoryDefaults) {
  Repo repo;
  auto cache = [&](std::map<std::string, std::string> env) {
    return load_config(request(repo.dir.path(), std::move(env))).cache_dir.string();
  };
  EXPECT_EQ(cache({{"HOME", "/home/u"}}), "/home/u/.cache/archfit");
  EXPECT_EQ(cache({{"HOME", "/home/u"}, {"XDG_CACHE_HOME", "/xdg"}}), "/xdg/archfit");
  // A relative XDG_CACHE_HOME is invalid by the XDG spec and ignored.
  EXPECT_EQ(cache({{"HOME", "/home/u"}, {"XDG_CACHE_HOME", "rel"}}), "/home/u/.cache/archfit");
  EXPECT_EQ(cache({{"HOME", "/home/u"}, {"XDG_CACHE_HOME", "/xdg"}, {"ARCHFIT_CACHE_DIR", "/c"}}),
            "/c");
  EXPECT_EQ(cache({}), "");
}

TEST(LoadConfig, OverriddenPlatformsDropEntriesForOtherArchitectures) {
  Repo repo;
  repo.write(".archfit.yaml",
             "clusterPlatforms: [linux/amd64, linux/s390x]\n"
             "architectures:\n  s390x: {nodeLabels: {example.com/cpu: z}}\n"
             "placement: {preferredWeights: {s390x: 50}}\n");
  ConfigRequest r = request(repo.dir.path());
  r.flags.platforms = "linux/amd64,linux/arm64";
  LoadedConfig c = load_config(r);
  EXPECT_EQ(c.config.architectures.count("s390x"), 0u);
  EXPECT_EQ(c.config.preferred_weights.count("s390x"), 0u);
  EXPECT_EQ(c.config.architectures.count("arm64"), 1u);
}

TEST(LoadConfig, OverriddenPlatformsMayAddWhatTheFileDescribes) {
  Repo repo;
  repo.write(".archfit.yaml", "architectures:\n  s390x: {nodeLabels: {example.com/cpu: z}}\n");
  // Alone the file is invalid: s390x is not in the default clusterPlatforms...
  EXPECT_NE(error_of(request(repo.dir.path())).find("is not in clusterPlatforms"),
            std::string::npos);
  // ...but with the platforms of this run it describes a cluster that has it.
  LoadedConfig c =
      load_config(request(repo.dir.path(), {{"ARCHFIT_PLATFORMS", "linux/amd64,linux/s390x"}}));
  EXPECT_EQ(c.config.architectures.at("s390x").node_labels,
            (std::vector<std::pair<std::string, std::string>>{{"example.com/cpu", "z"}}));
}

struct BadOverride {
  const char* name;
  std::map<std::string, std::string> env;
  std::function<void(CommonFlags&)> set_flag;
  ErrorKind kind;
  const char* message;
};

class InvalidOverride : public ::testing::TestWithParam<BadOverride> {};

TEST_P(InvalidOverride, NamesTheVariableOrFlag) {
  Repo repo;
  ConfigRequest r = request(repo.dir.path(), GetParam().env);
  if (GetParam().set_flag) GetParam().set_flag(r.flags);
  EXPECT_EQ(error_of(r, GetParam().kind), GetParam().message);
}

INSTANTIATE_TEST_SUITE_P(
    Table, InvalidOverride,
    ::testing::Values(
        BadOverride{
            "PlatformsVariable",
            {{"ARCHFIT_PLATFORMS", "linux/amd64,linux/amd46"}},
            nullptr,
            ErrorKind::Config,
            // Read as a ConfigMap's list is: the entry is named by its place.
            "ARCHFIT_PLATFORMS[1]: unknown platform \"linux/amd46\": \"amd46\" is not a known "
            "architecture; write os/arch[/variant] with Go's names, e.g. linux/arm64 (did "
            "you mean \"linux/amd64\"?)"},
        BadOverride{
            "PlatformsFlagEmptyEntry",
            {},
            [](CommonFlags& f) { f.platforms = "linux/amd64,"; },
            ErrorKind::Usage,
            "--platforms: empty entry in the comma-separated list \"linux/amd64,\"; separate "
            "entries with one comma"},
        BadOverride{
            "PlatformsFlagBlank",
            {},
            [](CommonFlags& f) { f.platforms = " "; },
            ErrorKind::Usage,
            "--platforms: must name at least one platform, e.g. [linux/amd64, linux/arm64]"},
        BadOverride{"Mode",
                    {{"ARCHFIT_MODE", "affinty"}},
                    nullptr,
                    ErrorKind::Config,
                    "ARCHFIT_MODE: \"affinty\" is not a mode; use one of affinity, nodeSelector, "
                    "preferred, tolerationsOnly (did you mean \"affinity\"?)"},
        BadOverride{"OnUnresolved",
                    {{"ARCHFIT_ON_UNRESOLVED", "error"}},
                    nullptr,
                    ErrorKind::Config,
                    "ARCHFIT_ON_UNRESOLVED: \"error\" is not a policy; use one of fail, warn, "
                    "ignore"},
        BadOverride{"ConcurrencyVariable",
                    {{"ARCHFIT_CONCURRENCY", "0"}},
                    nullptr,
                    ErrorKind::Config,
                    "ARCHFIT_CONCURRENCY: 0 is out of range; use an integer from 1 to 256"},
        BadOverride{"ConcurrencyFlag",
                    {{"ARCHFIT_CONCURRENCY", "0"}},
                    [](CommonFlags& f) { f.concurrency = "lots"; },
                    ErrorKind::Usage,
                    "--concurrency: expected an integer from 1 to 256, got \"lots\""},
        BadOverride{"TimeoutVariable",
                    {{"ARCHFIT_TIMEOUT", "30"}},
                    nullptr,
                    ErrorKind::Config,
                    "ARCHFIT_TIMEOUT: invalid duration \"30\": missing unit after 30; use s, m, h, "
                    "d or w, e.g. 30s, 1h30m, 7d"},
        BadOverride{"TimeoutFlagZero",
                    {},
                    [](CommonFlags& f) { f.timeout = "0s"; },
                    ErrorKind::Usage,
                    "--timeout: must be more than 0s, e.g. 30s"},
        BadOverride{"Offline",
                    {{"ARCHFIT_OFFLINE", "maybe"}},
                    nullptr,
                    ErrorKind::Config,
                    "ARCHFIT_OFFLINE: expected true or false (or 1 or 0), got \"maybe\""},
        BadOverride{"EmptyLockFlag",
                    {},
                    [](CommonFlags& f) { f.lock = ""; },
                    ErrorKind::Usage,
                    "--lock: empty path; name a lock file"}),
    [](const ::testing::TestParamInfo<BadOverride>& test) { return std::string(test.param.name); });

// ---------------------------------------------------------------------------
// The lock file of a run

TEST(LoadLockFile, ImplicitMissingIsEmptyExplicitMissingIsAnError) {
  Repo repo;
  LoadedConfig c = load_config(request(repo.dir.path()));
  EXPECT_EQ(load_lock_file(c).size(), 0u);

  c = load_config(request(repo.dir.path(), {{"ARCHFIT_LOCK", repo.path("x.lock").string()}}));
  try {
    load_lock_file(c);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Config);
    EXPECT_EQ(e.what(),
              "ARCHFIT_LOCK: lock file \"" + repo.path("x.lock").string() +
                  "\" does not exist; check the path, or write it with `archfit lock` (without a "
                  "registry: `archfit lock --set IMAGE=PLATFORMS`)");
  }
}

TEST(LoadLockFile, ReadsTheLockBesideTheConfig) {
  Repo repo;
  repo.write("deploy/.archfit.yaml", "");
  repo.write("deploy/archfit.lock",
             "{\"version\": 1, \"images\": {\"docker.io/library/nginx:latest\": "
             "{\"platforms\": [\"linux/amd64\"]}}}\n");
  LoadedConfig c = load_config(request(repo.path("deploy/app")));
  cache::LockFile lock = load_lock_file(c);
  EXPECT_EQ(lock.size(), 1u);
  EXPECT_TRUE(lock.find(image::Reference::parse("nginx")));
}

// ---------------------------------------------------------------------------
// The environment seam and the common flags

TEST(Environment, ProcessEnvironmentReadsGetenv) {
  Environment env = process_environment();
  EXPECT_EQ(env("PATH"), std::optional<std::string>(std::getenv("PATH")));
  EXPECT_EQ(env("ARCHFIT_TEST_SURELY_UNSET_VARIABLE"), std::nullopt);
  Environment fixed = fixed_environment({{"A", "1"}});
  EXPECT_EQ(fixed("A"), "1");
  EXPECT_EQ(fixed("B"), std::nullopt);
}

TEST(CommonFlags, RegisteredOnASubcommand) {
  CLI::App app;
  CommonFlags flags;
  CLI::App* fix = app.add_subcommand("fix");
  cli::add_common_flags(fix, flags);
  app.parse(
      "fix --config c.yaml --lock a.lock --cache-dir /c --platforms linux/arm64 "
      "--concurrency 4 --timeout 1m --no-offline",
      false);
  EXPECT_EQ(flags.config, "c.yaml");
  EXPECT_EQ(flags.lock, "a.lock");
  EXPECT_EQ(flags.cache_dir, "/c");
  EXPECT_EQ(flags.platforms, "linux/arm64");
  EXPECT_EQ(flags.concurrency, "4");
  EXPECT_EQ(flags.timeout, "1m");
  EXPECT_EQ(flags.offline, false);

  CommonFlags none;
  CLI::App app2;
  cli::add_common_flags(&app2, none);
  app2.parse("--offline", false);
  EXPECT_EQ(none.offline, true);
  EXPECT_FALSE(none.config || none.lock || none.cache_dir || none.platforms || none.concurrency ||
               none.timeout);
}

}  // namespace
}  // namespace archfit::config
