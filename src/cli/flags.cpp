// The flags every command that reads manifests shares, registered with CLI11;
// what they hold goes to the config module as overrides (config::CommonFlags).
#include "cli/flags.hpp"

#include <cstdlib>
#include <string_view>

#include <CLI/CLI.hpp>

#include <archfit/base/error.hpp>
#include <archfit/report/readiness.hpp>
#include <archfit/report/report.hpp>

#include "cli/commands.hpp"

namespace archfit::cli {

void add_report_flags(CLI::App* cmd, app::ReportRequest& flags) {
  std::vector<std::string> formats = report::format_names();
  for (const std::string& n : report::readiness_names())
    formats.push_back(n);
  std::string names;
  for (const std::string& n : formats)
    names += (names.empty() ? "" : ", ") + n;
  cmd->add_option("--format", flags.format,
                  "Report format: " + names +
                      " (default: text); readiness: what can run on each platform, and which "
                      "images keep workloads off it (by the file's extension with -o)")
      ->check(CLI::IsMember(formats));
  cmd->add_option("-o,--output", flags.output, "Write the report to FILE instead of stdout");
  cmd->add_option("--report", flags.reports,
                  "A report in FORMAT, to PATH or (without =PATH, or with =-) stdout; give it "
                  "once per report to write several from one run, e.g. --report sarif=a.sarif "
                  "--report github")
      ->type_name("FORMAT[=PATH]")
      ->allow_extra_args(false);
  cmd->add_option("--category", flags.category,
                  "SARIF: the run's category (automationDetails.id), one per analysis of the "
                  "same commit, e.g. the environment");
  // For the GitHub Action, whose own notices are of the same step.
  cmd->add_option("--github-notices-before", flags.github_notices_before,
                  "github: notices the step showed before archfit's (GitHub shows 10 a step)")
      ->group("");
  cmd->add_option("--source-root", flags.source_root,
                  "For helm-rendered input: the directory holding the charts, so that findings "
                  "point at DIR/<chart>/templates/<file> (from `# Source:` lines or helm 4's "
                  "postrender-filename annotation)");
}

void require_files_after_separator(const RunState& state) {
  const char* pre_commit = std::getenv("PRE_COMMIT");
  if (state.separator || pre_commit == nullptr || std::string_view(pre_commit) != "1") return;
  fail(ErrorKind::Usage,
       "under pre-commit, file names must follow \"--\", so that a file named like an option is "
       "not taken for one: the archfit hooks' args default to [--]; args of your own must end "
       "with --, e.g. args: [--fail-on=warning, --]");
}

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
                  "Lock file for every input (default: $ARCHFIT_LOCK, else for each file the "
                  "nearest archfit.lock above it, up to the repository root)")
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
  app->add_option(
         "--concurrency", flags.concurrency,
         "Requests in flight to one registry over HTTP/1.1, 1 to 256; over HTTP/2 eight times "
         "as many, at most 100 (default: resolve.concurrency, 16)")
      ->type_name("N");
  app->add_option("--timeout", flags.timeout,
                  "Time limit of one registry request, e.g. 30s, 2m (default: resolve.timeout)")
      ->type_name("DUR");
  app->add_option("--stdin-dir", flags.stdin_dir,
                  "Look for standard input's .archfit.yaml and archfit.lock from DIR upward, as "
                  "for a file in DIR (default: the working directory), e.g. a chart's directory "
                  "for its rendered manifests")
      ->type_name("DIR");
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

std::vector<std::string> hoist_global_options(std::vector<std::string> args) {
  // Options taking a value ("--lock L" or "--lock=L"), and flags.
  static const std::string_view kWithValue[] = {"--config",    "--lock",     "--cache-dir",
                                                "--platforms", "--timeout",  "--concurrency",
                                                "--progress",  "--stdin-dir"};
  static const std::string_view kFlags[] = {
      "--offline", "--no-offline", "-v", "--verbose", "-q", "--quiet", "--follow-symlinks"};
  auto with_value = [](std::string_view a) {
    for (std::string_view name : kWithValue) {
      if (a == name) return 2;
      if (a.size() > name.size() && a.starts_with(name) && a[name.size()] == '=') return 1;
    }
    return 0;
  };
  auto is_flag = [](std::string_view a) {
    for (std::string_view name : kFlags)
      if (a == name) return true;
    return false;
  };
  if (args.size() < 2) return args;
  std::vector<std::string> hoisted;
  std::size_t i = 1;
  bool version = false;
  while (i < args.size()) {
    std::string_view a = args[i];
    if (a == "--version") {
      version = true;
      ++i;
    } else if (int n = with_value(a); n > 0 && i + static_cast<std::size_t>(n) <= args.size()) {
      hoisted.insert(hoisted.end(), args.begin() + static_cast<std::ptrdiff_t>(i),
                     args.begin() + static_cast<std::ptrdiff_t>(i) + n);
      i += static_cast<std::size_t>(n);
    } else if (is_flag(a)) {
      hoisted.push_back(args[i++]);
    } else {
      break;
    }
  }
  std::vector<std::string> out{args[0]};
  if (i == args.size() || args[i].starts_with("-")) {
    // No command follows: `archfit --version`, or options CLI11 will refuse.
    if (version) return {args[0], "version"};
    return args;
  }
  out.push_back(args[i]);  // the command
  out.insert(out.end(), hoisted.begin(), hoisted.end());
  out.insert(out.end(), args.begin() + static_cast<std::ptrdiff_t>(i) + 1, args.end());
  if (version) return {args[0], "version"};
  return out;
}

}  // namespace archfit::cli
