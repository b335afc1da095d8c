// `archfit fix`: write what each pod template needs into the files (or show
// it with --diff, or only say whether anything would change with --check).
#include <iostream>
#include <memory>

#include <archfit/base/atomic_write.hpp>
#include <archfit/base/error.hpp>
#include <archfit/base/file.hpp>
#include <archfit/base/spool.hpp>
#include <archfit/base/unified_diff.hpp>
#include <archfit/report/report.hpp>
#include <archfit/run/run.hpp>

#include "cli/commands.hpp"
#include "cli/report_output.hpp"
#include "cli/run_setup.hpp"
#include "cli/shown.hpp"

namespace archfit::cli {

namespace {

struct FixOptions {
  std::vector<std::string> paths;
  CommonFlags common;
  bool check = false;
  bool diff = false;
  bool remove = false;
  bool quiet = false;
  bool verbose = false;
  ReportFlags report;         // --check or --diff
  std::string changed_files;  // --changed-files FILE
};

// --changed-files: the names of the files that changed (or would), each
// followed by a NUL byte, so that any name a file can have (a newline in a
// directory's name) reads back as it is. Written whatever the exit status.
void write_changed_files(const FixOptions& o, const run::RunResult& run) {
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

// A file's patch on stdout, a piece at a time.
void print_diff(const run::FileResult& file) {
  write_unified_diff(file.original, file.edits, "a/" + file.input.name, "b/" + file.input.name,
                     [](std::string_view part) {
                       std::cout.write(part.data(), static_cast<std::streamsize>(part.size()));
                     });
}

// fix --check or --diff with reports: lint's report of the same run (every
// finding) in each format asked for, with the diff of what would change in
// the formats that show it; --diff also prints the patch on stdout. Exit 1
// exactly when something would change.
int check_with_report(const FixOptions& o, RunSetup& setup) {
  ReportOutput report(o.report, o.verbose ? findings::Severity::Info : findings::Severity::Warning);
  run::RunOptions options = setup.run_options;
  options.report_everything = true;
  run::RunResult run =
      run::run_pipeline(setup.run_inputs(), setup.settings(),
                        o.remove ? run::Task::Remove : run::Task::Fix, report.sink(), options);
  print_notices(std::cerr, run);
  print_resolved(std::cerr, setup.stats());
  write_changed_files(o, run);
  std::size_t changed = 0;
  for (const run::FileResult& file : run.files) {
    if (!file.changed()) continue;
    ++changed;
    // The patch goes to stdout as it is made; a report that shows diffs
    // keeps its own.
    if (o.diff) print_diff(file);
    if (report.shows_diffs()) {
      report.add_diff(
          unified_diff(file.original, file.edits, "a/" + file.input.name, "b/" + file.input.name));
    }
  }
  report.write(report::Summary{run.files.size(), run.workloads, run.templates, run.counts});
  if (run.unresolved_failure) {
    std::cerr << kUnresolvedFailure << '\n';
    return kUnresolved;
  }
  if (std::string why = o.remove ? "" : checked_nothing(setup); !why.empty()) {
    std::cerr << why << '\n';
    return kUnresolved;
  }
  return changed > 0 || run.faults > 0 ? kChangesOrFindings : kOk;
}

int run_fix(const FixOptions& o) {
  if (o.check && o.diff) fail(ErrorKind::Usage, "--check and --diff cannot be used together");
  bool reporting = o.report.given();
  if (reporting && !o.check && !o.diff) {
    fail(ErrorKind::Usage,
         "--format, --output and --report go with --check or --diff (a report of what fix "
         "would do)");
  }
  if (reporting) {  // usage errors before any work
    for (const ReportTarget& t : report_targets(o.report)) {
      if (o.diff && t.path.empty()) {
        fail(ErrorKind::Usage,
             "with --diff the patch goes to stdout; give each report a file "
             "(--report FORMAT=PATH)");
      }
    }
  }
  RunSetup setup =
      prepare_run(o.paths, o.common, SetupOptions{.config_per_file = true, .verbose = o.verbose});
  if (reporting) return check_with_report(o, setup);
  // Held back until every input was read, then printed before anything is
  // written.
  Spool leftovers;
  run::RunSink sink;
  sink.finding = [&](const findings::Finding& f) {
    if (!o.quiet || f.severity == findings::Severity::Error) write_leftover(leftovers.out(), f);
  };
  run::RunResult run = [&] {
    try {
      return run::run_pipeline(setup.run_inputs(), setup.settings(),
                               o.remove ? run::Task::Remove : run::Task::Fix, sink,
                               setup.run_options);
    } catch (const Error& e) {
      // Files are written only after every one of them was processed.
      if (o.check || o.diff) throw;
      throw Error(e.kind(), e.message() + "; no file was written", e.where());
    }
  }();
  print_notices(std::cerr, run);
  if (!o.quiet) print_resolved(std::cerr, setup.stats());
  if (o.verbose) print_resolution_summary(std::cerr, setup.stats());
  std::cerr.flush();
  leftovers.content()([](std::string_view part) {
    std::cerr.write(part.data(), static_cast<std::streamsize>(part.size()));
  });
  if (run.unresolved_failure) {
    std::cerr << kUnresolvedFailure << "; nothing was written\n";
    return kUnresolved;
  }
  if (std::string why = o.remove ? "" : checked_nothing(setup); !why.empty()) {
    std::cerr << why << "\nNothing was written.\n";
    return kUnresolved;
  }
  bool unfixed_errors = run.unfixable_errors > 0;

  std::size_t changed = 0;
  for (const run::FileResult& file : run.files)
    changed += file.changed() ? 1 : 0;

  if (o.check || o.diff) {
    for (const run::FileResult& file : run.files) {
      if (!file.changed()) continue;
      if (o.check) {
        std::cout << "would change " << shown(file.input.name) << '\n';
      } else {
        print_diff(file);
      }
    }
    write_changed_files(o, run);
    // Exactly when lint reports a finding fix would fix: what fix cannot fix
    // is lint's to report. What archfit could not read it could not check.
    return changed > 0 || run.faults > 0 ? kChangesOrFindings : kOk;
  }

  // All files or none: every replacement is prepared beside its file first,
  // and put in place only when each of them could be.
  std::vector<std::unique_ptr<PendingWrite>> pending;
  std::vector<std::string> failed;
  for (const run::FileResult& file : run.files) {
    if (file.input.is_stdin || !file.changed()) continue;
    try {
      pending.push_back(
          std::make_unique<PendingWrite>(file.input.path, file.output_parts(), &file.identity));
    } catch (const Error& e) {
      std::cerr << "archfit: " << shown(e.what()) << '\n';
      failed.push_back(file.input.name);
    }
  }
  if (!failed.empty()) {
    std::cerr << "archfit: " << failed.size() << " of " << changed
              << " changed files cannot be written, so no file was written:";
    for (const std::string& name : failed)
      std::cerr << ' ' << shown(name);
    std::cerr << '\n';
    return kUsageOrInput;
  }
  // Once more right before renaming: the files may have changed while the
  // replacements were written.
  for (std::size_t k = 0; k < pending.size(); ++k) {
    try {
      pending[k]->check_unchanged();
    } catch (const Error& e) {
      std::cerr << "archfit: " << shown(e.what()) << '\n' << "archfit: no file was written\n";
      return kUsageOrInput;
    }
  }
  // A stream that could not be read is not passed on.
  for (const run::FileResult& file : run.files) {
    if (file.input.is_stdin && !file.stopped) write_stdout(file.output_parts());
  }
  std::size_t i = 0;
  for (const run::FileResult& file : run.files) {
    if (file.input.is_stdin || !file.changed()) continue;
    pending[i++]->commit();
    if (!o.quiet) std::cerr << "fixed " << shown(file.input.name) << '\n';
  }
  write_changed_files(o, run);
  return unfixed_errors ? kChangesOrFindings : kOk;
}

}  // namespace

void add_fix_command(CLI::App& app, RunState& state) {
  auto o = std::make_shared<FixOptions>();
  CLI::App* cmd = app.add_subcommand(
      "fix",
      "Add node affinity and tolerations to pod templates so that each runs only where its images "
      "do, recording what was added in the archfit.io/owned annotation");
  cmd->add_option("paths", o->paths,
                  "Files or directories (searched for *.yaml, *.yml); '-' or none: stdin to "
                  "stdout");
  cmd->add_flag("--check", o->check, "Write nothing; exit 1 if anything would change");
  cmd->add_flag("--diff", o->diff,
                "Write nothing; print a unified diff; exit 1 if anything would change");
  cmd->add_flag(
      "--remove", o->remove,
      "Take out exactly what archfit added earlier (as its archfit.io/owned records say)");
  cmd->add_flag("-q,--quiet", o->quiet, "Print only errors");
  cmd->add_option("--changed-files", o->changed_files,
                  "Write the names of the files fix changed (with --check or --diff: would "
                  "change) to FILE, each followed by a NUL byte")
      ->type_name("FILE");
  add_report_flags(cmd, o->report);
  cmd->add_flag("-v,--verbose", o->verbose,
                "Log registry requests and print how images were resolved");
  add_common_flags(cmd, o->common);
  add_input_flags(cmd, o->common);
  cmd->callback([o, &state] {
    require_files_after_separator(state);
    state.exit_code = run_fix(*o);
  });
}

}  // namespace archfit::cli
