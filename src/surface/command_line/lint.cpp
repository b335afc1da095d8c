#include <optional>

#include <archfit/app/messages.hpp>
#include <archfit/app/session.hpp>
#include <archfit/surface/command_line/lint.hpp>

namespace archfit::surface::command_line {

app::ExitCode lint(const LintRequest& o, app::Output& out, std::ostream& err) {
  std::optional<findings::Severity> threshold;
  if (o.fail_on != "never") threshold = findings::parse_severity(o.fail_on);
  // Infos (mutable tags, skipped images) are many; text shows them when asked.
  findings::Severity shown = o.verbose || threshold == findings::Severity::Info
                                 ? findings::Severity::Info
                                 : findings::Severity::Warning;
  app::Reports reports(o.report, shown, out);
  app::Request request;
  request.paths = o.paths;
  request.flags = o.flags;
  request.env = o.env;
  request.config_per_file = true;
  request.verbose = o.verbose;
  request.task = run::Task::Lint;
  request.readiness = reports.wants_readiness();
  app::Session session(std::move(request), err);
  app::Outcome outcome = session.run(reports.sink());
  const run::RunResult& run = outcome.run;
  app::print_notices(err, run);
  app::print_resolved(err, outcome.resolution);
  if (o.verbose) app::print_resolution_summary(err, outcome.resolution);
  reports.write(report::Summary{run.files.size(), run.workloads, run.templates, run.counts},
                outcome.readiness ? &*outcome.readiness : nullptr);
  if (run.unresolved_failure) {
    err << app::kUnresolvedFailure << '\n';
  } else if (!outcome.checked_nothing.empty()) {
    err << outcome.checked_nothing << '\n';
  }
  return outcome.exit(threshold && run.counts.at_least(*threshold) > 0);
}

}  // namespace archfit::surface::command_line
