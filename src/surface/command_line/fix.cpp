#include <archfit/app/messages.hpp>
#include <archfit/app/session.hpp>
#include <archfit/app/writes.hpp>
#include <archfit/base/atomic_write.hpp>
#include <archfit/base/error.hpp>
#include <archfit/base/spool.hpp>
#include <archfit/base/unified_diff.hpp>
#include <archfit/base/untrusted.hpp>
#include <archfit/report/report.hpp>
#include <archfit/surface/command_line/fix.hpp>

namespace archfit::surface::command_line {

namespace {

std::string shown(std::string_view text) {
  return for_terminal(Untrusted(text));
}

// --changed-files: the names of the files that changed (or would), each
// followed by a NUL byte, so that any name a file can have (a newline in a
// directory's name) reads back as it is. Written whatever the exit status.
void write_changed_files(const FixRequest& o, const run::RunResult& run) {
  if (o.changed_files.empty()) return;
  std::string names;
  for (const run::FileResult& file : run.files) {
    if (file.input.is_stdin || !file.changed()) continue;
    names += file.input.name;
    names += '\0';
  }
  write_atomically(o.changed_files, names);
}

// What fix could not do, findings a person has to act on, one line each.
void write_leftover(std::ostream& out, const findings::Finding& f) {
  if (f.fixable || f.severity < findings::Severity::Warning) return;
  out << report::text_line(f) << '\n';
}

// A file's patch, a piece at a time.
void print_diff(const run::FileResult& file, app::Output& out) {
  write_unified_diff(file.original, file.edits, "a/" + file.input.name, "b/" + file.input.name,
                     [&out](std::string_view part) { out.write(part); });
}

app::Request session_request(const FixRequest& o) {
  app::Request request;
  request.paths = o.paths;
  request.flags = o.flags;
  request.env = o.env;
  request.config_per_file = true;
  request.verbose = o.verbose;
  request.task = o.remove ? run::Task::Remove : run::Task::Fix;
  return request;
}

// fix --check or --diff with reports: lint's report of the same run (every
// finding) in each format asked for, with the diff of what would change in
// the formats that show it; --diff also prints the patch. Exit 1 exactly
// when something would change.
app::ExitCode check_with_report(const FixRequest& o, app::Output& out, std::ostream& err) {
  app::Reports reports(o.report, o.verbose ? findings::Severity::Info : findings::Severity::Warning,
                       out);
  app::Request request = session_request(o);
  request.report_everything = true;
  request.readiness = reports.wants_readiness();
  app::Session session(std::move(request), err);
  app::Outcome outcome = session.run(reports.sink());
  const run::RunResult& run = outcome.run;
  app::print_notices(err, run);
  app::print_resolved(err, outcome.resolution);
  write_changed_files(o, run);
  std::size_t changed = 0;
  for (const run::FileResult& file : run.files) {
    if (!file.changed()) continue;
    ++changed;
    // The patch goes out as it is made; a report that shows diffs keeps its
    // own.
    if (o.diff) print_diff(file, out);
    if (reports.shows_diffs()) {
      reports.add_diff(
          unified_diff(file.original, file.edits, "a/" + file.input.name, "b/" + file.input.name));
    }
  }
  reports.write(report::Summary{run.files.size(), run.workloads, run.templates, run.counts},
                outcome.readiness ? &*outcome.readiness : nullptr);
  if (run.unresolved_failure) {
    err << app::kUnresolvedFailure << '\n';
  } else if (!outcome.checked_nothing.empty()) {
    err << outcome.checked_nothing << '\n';
  }
  return outcome.exit(changed > 0);
}

}  // namespace

app::ExitCode fix(const FixRequest& o, app::Output& out, std::ostream& err) {
  if (o.check && o.diff) fail(ErrorKind::Usage, "--check and --diff cannot be used together");
  const bool reporting = o.report.given();
  if (reporting && !o.check && !o.diff) {
    fail(ErrorKind::Usage,
         "--format, --output and --report go with --check or --diff (a report of what fix "
         "would do)");
  }
  if (reporting) {  // usage errors before any work
    for (const app::ReportTarget& t : app::report_targets(o.report)) {
      if (o.diff && t.path.empty()) {
        fail(ErrorKind::Usage,
             "with --diff the patch goes to stdout; give each report a file "
             "(--report FORMAT=PATH)");
      }
    }
    return check_with_report(o, out, err);
  }
  // Held back until every input was read, then printed before anything is
  // written.
  Spool leftovers;
  run::RunSink sink;
  sink.finding = [&](const findings::Finding& f) {
    if (!o.quiet || f.severity == findings::Severity::Error) write_leftover(leftovers.out(), f);
  };
  app::Session session(session_request(o), err);
  app::Outcome outcome = [&] {
    try {
      return session.run(sink);
    } catch (const Error& e) {
      // Files are written only after every one of them was processed.
      if (o.check || o.diff) throw;
      throw Error(e.kind(), e.message() + "; no file was written", e.where());
    }
  }();
  const run::RunResult& run = outcome.run;
  app::print_notices(err, run);
  if (!o.quiet) app::print_resolved(err, outcome.resolution);
  if (o.verbose) app::print_resolution_summary(err, outcome.resolution);
  err.flush();
  leftovers.content()([&err](std::string_view part) {
    err.write(part.data(), static_cast<std::streamsize>(part.size()));
  });
  const bool writes = !o.check && !o.diff;
  if (run.unresolved_failure) {
    err << app::kUnresolvedFailure << "; nothing was written\n";
    return app::kUnresolved;
  }
  if (!outcome.checked_nothing.empty()) {
    err << outcome.checked_nothing << "\nNothing was written.\n";
    return app::kUnresolved;
  }
  if (!writes) {
    std::size_t changed = 0;
    for (const run::FileResult& file : run.files) {
      if (!file.changed()) continue;
      ++changed;
      if (o.check) {
        out.write("would change " + shown(file.input.name) + "\n");
      } else {
        print_diff(file, out);
      }
    }
    write_changed_files(o, run);
    // Exactly when lint reports a finding fix would fix: what fix cannot fix
    // is lint's to report. What archfit could not read it could not check.
    return outcome.exit(changed > 0);
  }
  if (app::ExitCode written = app::write_all_or_nothing(run, out, err, o.quiet);
      written != app::kOk) {
    return written;
  }
  write_changed_files(o, run);
  return run.unfixable_errors > 0 ? app::kChangesOrFindings : app::kOk;
}

}  // namespace archfit::surface::command_line
