// `archfit post-render`: helm's post-renderer. The rendered stream on stdin,
// the fixed stream on stdout (or, with --lint, the same stream checked and
// passed through). helm 3 runs it as --post-renderer, helm 4 as the plugin in
// helm-plugin/. Never prints empty output with a success (helm 4 refuses
// empty output, and an empty release deletes everything); a failure is
// written to stderr and, because helm 4 shows no stderr, to a log file too.
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include <archfit/base/error.hpp>
#include <archfit/base/file.hpp>
#include <archfit/base/spool.hpp>
#include <archfit/report/report.hpp>
#include <archfit/run/run.hpp>

#include "cli/commands.hpp"
#include "cli/run_setup.hpp"
#include "cli/shown.hpp"

namespace archfit::cli {

namespace {

struct PostRenderOptions {
  CommonFlags common;
  bool lint = false;
  std::string fail_on = "error";
  std::string log;
  // Who stops when post-render fails: "helm", or "Argo CD" for argocd generate.
  std::string caller = "helm";
};

// Where failures are logged: --log, $ARCHFIT_POST_RENDER_LOG, else
// $XDG_STATE_HOME/archfit/post-render.log (~/.local/state/...).
std::filesystem::path log_path(const PostRenderOptions& o) {
  if (!o.log.empty()) return o.log;
  if (const char* env = std::getenv("ARCHFIT_POST_RENDER_LOG"); env && *env) return env;
  std::filesystem::path state;
  if (const char* xdg = std::getenv("XDG_STATE_HOME"); xdg && *xdg) {
    state = xdg;
  } else if (const char* home = std::getenv("HOME"); home && *home) {
    state = std::filesystem::path(home) / ".local" / "state";
  } else {
    return {};
  }
  return state / "archfit" / "post-render.log";
}

// Appends `text` to the log, stamped; a log that cannot be written is said
// on stderr, and the failure it was to record stands.
void log_failure(const PostRenderOptions& o, const Content& text) {
  std::filesystem::path path = log_path(o);
  if (path.empty()) return;
  std::error_code ec;
  std::filesystem::create_directories(path.parent_path(), ec);
  std::ofstream out(path, std::ios::app);
  if (!out) {
    std::cerr << "archfit: cannot write the post-render log " << shown(path.string()) << '\n';
    return;
  }
  std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  out << "--- " << stamp << " archfit post-render failed\n";
  text([&out](std::string_view part) {
    out.write(part.data(), static_cast<std::streamsize>(part.size()));
  });
}

void write_stderr(const Content& text) {
  std::cerr.flush();
  text([](std::string_view part) {
    std::cerr.write(part.data(), static_cast<std::streamsize>(part.size()));
  });
}

std::optional<findings::Severity> threshold_of(const std::string& fail_on) {
  if (fail_on == "never") return std::nullopt;
  if (fail_on == "info") return findings::Severity::Info;
  if (fail_on == "warning") return findings::Severity::Warning;
  return findings::Severity::Error;
}

int run_post_render(const PostRenderOptions& o) {
  // What stderr gets, kept for the log: a spool, since a stream of 100,000
  // unresolved images says 30 MB.
  Spool said;
  auto fail_with = [&](int code) {
    std::filesystem::path log = log_path(o);
    // The helm plugin's own executable, which need not be on PATH: the
    // commands above that start with `archfit` are run with it.
    if (const char* own = std::getenv("ARCHFIT_PLUGIN_EXECUTABLE"); own && *own) {
      said.out() << "archfit: the archfit of the helm plugin is " << shown(own)
                 << ": run the archfit commands above with it\n";
    }
    said.out() << "archfit: post-render failed, so " << o.caller << " stops"
               << (log.empty() ? std::string() : "; this is also in " + shown(log.string()))
               << (o.caller == "helm" ? " (docs/helm.md)\n" : " (docs/argocd.md)\n");
    Content text = said.content();
    write_stderr(text);
    log_failure(o, text);
    return code;
  };
  try {
    RunSetup setup = prepare_run(
        {"-"}, o.common, SetupOptions{.config_per_file = false, .unattended = "post-render"});
    std::optional<findings::Severity> threshold = threshold_of(o.fail_on);
    std::size_t failing = 0;
    run::RunSink sink;
    sink.finding = [&](const findings::Finding& f) {
      // fix reports only what it leaves; lint reports everything.
      if (!o.lint && f.fixable) return;
      if (f.severity < findings::Severity::Warning && !(threshold && f.severity >= *threshold)) {
        return;
      }
      said.out() << report::text_line(f) << '\n';
      if (threshold && f.severity >= *threshold) ++failing;
    };
    run::RunResult run =
        run::run_pipeline(setup.run_inputs(), setup.settings(),
                          o.lint ? run::Task::Lint : run::Task::Fix, sink, setup.run_options);
    for (const std::string& w : run.warnings)
      said.out() << w << '\n';
    print_resolved(said.out(), setup.stats());
    if (run.unresolved_failure) {
      said.out() << kUnresolvedFailure << '\n';
      return fail_with(kUnresolved);
    }
    if (failing > 0) {
      said.out() << "archfit: " << failing << " finding" << (failing == 1 ? "" : "s")
                 << " at --fail-on " << o.fail_on << " or worse\n";
      return fail_with(kChangesOrFindings);
    }
    // What archfit could not read was not checked: never a pass.
    if (run.faults > 0) {
      said.out() << "archfit: " << run.faults << (run.faults == 1 ? " fault" : " faults")
                 << " in the rendered manifests (above): archfit could not read what they hold\n";
      return fail_with(kChangesOrFindings);
    }
    write_stderr(said.content());
    const run::FileResult& stream = run.files.at(0);
    std::vector<std::string_view> parts =
        o.lint ? std::vector<std::string_view>{stream.original} : stream.output_parts();
    std::size_t size = 0;
    for (std::string_view p : parts)
      size += p.size();
    if (size == 0) {
      // helm refuses empty output from a post-renderer; a comment is none.
      write_stdout({"# archfit: helm rendered no manifests\n"});
    } else {
      write_stdout(parts);
    }
    return kOk;
  } catch (const Error& e) {
    const Location& at = e.where();
    said.out() << (at.line > 0 || !at.file.empty() ? "" : "archfit: ") << e.what() << '\n';
    return fail_with(e.kind() == ErrorKind::Resolution ? kUnresolved : kUsageOrInput);
  }
}

}  // namespace

void add_post_render_command(CLI::App& app, RunState& state) {
  auto o = std::make_shared<PostRenderOptions>();
  CLI::App* cmd = app.add_subcommand(
      "post-render",
      "helm post-renderer: fix the rendered stream on stdin and print it on stdout (helm 3: "
      "--post-renderer archfit-post-render; helm 4: the archfit plugin); see docs/helm.md");
  cmd->add_flag("--lint", o->lint,
                "Change nothing: pass the stream through, and fail when a finding reaches "
                "--fail-on (for CI)");
  cmd->add_option("--fail-on", o->fail_on,
                  "Fail (exit 1, no output) when a finding fix leaves (--lint: any finding) has "
                  "this severity or worse: error, warning, info, never")
      ->check(CLI::IsMember({"error", "warning", "info", "never"}))
      ->capture_default_str();
  cmd->add_option("--log", o->log,
                  "Also write failures to FILE, since helm 4 shows no stderr (default: "
                  "$ARCHFIT_POST_RENDER_LOG, else $XDG_STATE_HOME/archfit/post-render.log, else "
                  "~/.local/state/archfit/post-render.log)")
      ->type_name("FILE");
  // Not for users: argocd generate runs post-render and names itself.
  cmd->add_option("--caller", o->caller)->check(CLI::IsMember({"helm", "Argo CD"}))->group("");
  add_common_flags(cmd, o->common);
  cmd->callback([o, &state] { state.exit_code = run_post_render(*o); });
}

}  // namespace archfit::cli
