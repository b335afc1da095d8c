#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <optional>

#include <archfit/app/messages.hpp>
#include <archfit/app/session.hpp>
#include <archfit/base/error.hpp>
#include <archfit/base/file.hpp>
#include <archfit/base/spool.hpp>
#include <archfit/base/untrusted.hpp>
#include <archfit/report/report.hpp>
#include <archfit/surface/post_render/post_render.hpp>

namespace archfit::surface::post_render {

namespace {

std::string shown(std::string_view text) {
  return for_terminal(Untrusted(text));
}

// Where failures are logged: --log, $ARCHFIT_POST_RENDER_LOG, else
// $XDG_STATE_HOME/archfit/post-render.log (~/.local/state/...).
std::filesystem::path log_path(const PostRenderRequest& o) {
  if (!o.log.empty()) return o.log;
  if (auto env = o.env("ARCHFIT_POST_RENDER_LOG"); env && !env->empty()) return *env;
  std::filesystem::path state;
  if (auto xdg = o.env("XDG_STATE_HOME"); xdg && !xdg->empty()) {
    state = *xdg;
  } else if (auto home = o.env("HOME"); home && !home->empty()) {
    state = std::filesystem::path(*home) / ".local" / "state";
  } else {
    return {};
  }
  return state / "archfit" / "post-render.log";
}

// Appends `text` to the log, stamped; a log that cannot be written is said
// on stderr, and the failure it was to record stands.
void log_failure(const PostRenderRequest& o, const Content& text, std::ostream& err) {
  std::filesystem::path path = log_path(o);
  if (path.empty()) return;
  std::error_code ec;
  std::filesystem::create_directories(path.parent_path(), ec);
  std::ofstream out(path, std::ios::app);
  if (!out) {
    err << "archfit: cannot write the post-render log " << shown(path.string()) << '\n';
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

void write_to(std::ostream& err, const Content& text) {
  err.flush();
  text([&err](std::string_view part) {
    err.write(part.data(), static_cast<std::streamsize>(part.size()));
  });
}

std::optional<findings::Severity> threshold_of(const std::string& fail_on) {
  if (fail_on == "never") return std::nullopt;
  if (fail_on == "info") return findings::Severity::Info;
  if (fail_on == "warning") return findings::Severity::Warning;
  return findings::Severity::Error;
}

}  // namespace

app::ExitCode post_render(const PostRenderRequest& o, std::optional<std::string> rendered,
                          app::Output& out, std::ostream& err) {
  // What stderr gets, kept for the log: a spool, since a stream of 100,000
  // unresolved images says 30 MB.
  Spool said;
  auto fail_with = [&](app::ExitCode code) {
    std::filesystem::path log = log_path(o);
    // The helm plugin's own executable, which need not be on PATH: the
    // commands above that start with `archfit` are run with it.
    if (auto own = o.env("ARCHFIT_PLUGIN_EXECUTABLE"); own && !own->empty()) {
      said.out() << "archfit: the archfit of the helm plugin is " << shown(*own)
                 << ": run the archfit commands above with it\n";
    }
    said.out() << "archfit: post-render failed, so " << o.caller << " stops"
               << (log.empty() ? std::string() : "; this is also in " + shown(log.string()))
               << (o.caller == "helm" ? " (docs/helm.md)\n" : " (docs/argocd.md)\n");
    Content text = said.content();
    write_to(err, text);
    log_failure(o, text, err);
    return code;
  };
  try {
    app::Request request;
    if (rendered) {
      request.stream = app::Stream{"<stdin>", std::move(*rendered), true};
    } else {
      request.paths = {"-"};
    }
    request.flags = o.flags;
    request.env = o.env;
    request.unattended = "post-render";
    request.task = o.lint ? run::Task::Lint : run::Task::Fix;
    app::Session session(std::move(request), err);
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
    app::Outcome outcome = session.run(sink);
    const run::RunResult& run = outcome.run;
    for (const std::string& w : run.warnings)
      said.out() << w << '\n';
    app::print_resolved(said.out(), outcome.resolution);
    if (run.unresolved_failure) {
      said.out() << app::kUnresolvedFailure << '\n';
      return fail_with(app::kUnresolved);
    }
    if (failing > 0) {
      said.out() << "archfit: " << failing << " finding" << (failing == 1 ? "" : "s")
                 << " at --fail-on " << o.fail_on << " or worse\n";
      return fail_with(app::kChangesOrFindings);
    }
    // What archfit could not read was not checked: never a pass.
    if (run.faults > 0) {
      said.out() << "archfit: " << run.faults << (run.faults == 1 ? " fault" : " faults")
                 << " in the rendered manifests (above): archfit could not read what they hold\n";
      return fail_with(app::kChangesOrFindings);
    }
    write_to(err, said.content());
    const run::FileResult& stream = run.files.at(0);
    std::vector<std::string_view> parts =
        o.lint ? std::vector<std::string_view>{stream.original} : stream.output_parts();
    std::size_t size = 0;
    for (std::string_view p : parts)
      size += p.size();
    if (size == 0) {
      // helm refuses empty output from a post-renderer; a comment is none.
      out.write("# archfit: helm rendered no manifests\n");
    } else {
      out.write(parts);
    }
    return app::kOk;
  } catch (const Error& e) {
    const Location& at = e.where();
    said.out() << (at.line > 0 || !at.file.empty() ? "" : "archfit: ") << e.what() << '\n';
    return fail_with(e.kind() == ErrorKind::Resolution ? app::kUnresolved : app::kUsageOrInput);
  }
}

}  // namespace archfit::surface::post_render
