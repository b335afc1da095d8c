#include "cli/report_output.hpp"

#include <algorithm>
#include <exception>
#include <filesystem>
#include <memory>
#include <mutex>
#include <set>

#include <archfit/base/atomic_write.hpp>
#include <archfit/base/error.hpp>
#include <archfit/base/file.hpp>
#include <archfit/base/parallel_for.hpp>
#include <archfit/base/text.hpp>
#include <archfit/base/threads.hpp>

namespace archfit::cli {

void add_report_flags(CLI::App* cmd, ReportFlags& flags) {
  std::string names;
  for (const std::string& n : report::format_names())
    names += (names.empty() ? "" : ", ") + n;
  cmd->add_option("--format", flags.format, "Report format: " + names + " (default: text)")
      ->check(CLI::IsMember(report::format_names()));
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
  cmd->add_option("--source-root", flags.source_root,
                  "For helm-rendered input: the directory holding the charts, so that findings "
                  "point at DIR/<chart>/templates/<file> (from `# Source:` lines or helm 4's "
                  "postrender-filename annotation)");
}

namespace {

ReportTarget parse_target(const std::string& text) {
  const std::size_t eq = text.find('=');
  const std::string name = text.substr(0, eq);
  ReportTarget t;
  try {
    t.format = report::parse_format(name);
  } catch (const Error& e) {
    fail(ErrorKind::Usage, "--report " + archfit::quoted(text) + ": " + e.message());
  }
  if (eq != std::string::npos) t.path = text.substr(eq + 1);
  if (t.path == "-") t.path.clear();
  if (eq != std::string::npos && t.path.empty() && text.size() == eq + 1) {
    fail(ErrorKind::Usage, "--report " + archfit::quoted(text) +
                               ": no file after '='; give FORMAT=PATH, or FORMAT alone for stdout");
  }
  return t;
}

}  // namespace

std::vector<ReportTarget> report_targets(const ReportFlags& flags) {
  if (flags.reports.empty()) {
    ReportTarget t;
    if (!flags.format.empty()) t.format = report::parse_format(flags.format);
    t.path = flags.output;
    return {t};
  }
  if (!flags.format.empty() || !flags.output.empty()) {
    fail(ErrorKind::Usage,
         "--report cannot be combined with --format or -o; give each report as --report "
         "FORMAT[=PATH]");
  }
  std::vector<ReportTarget> out;
  std::set<std::string> files;
  bool to_stdout = false;
  for (const std::string& text : flags.reports) {
    ReportTarget t = parse_target(text);
    if (t.path.empty()) {
      if (to_stdout) {
        fail(ErrorKind::Usage, "--report " + archfit::quoted(text) +
                                   ": another report already goes to stdout; give this one "
                                   "a file, as FORMAT=PATH");
      }
      to_stdout = true;
    } else if (!files.insert(std::filesystem::path(t.path).lexically_normal().string()).second) {
      fail(ErrorKind::Usage, "--report " + archfit::quoted(text) +
                                 ": another report already goes to " + archfit::quoted(t.path));
    }
    out.push_back(std::move(t));
  }
  return out;
}

ReportOutput::ReportOutput(const ReportFlags& flags, findings::Severity shown) {
  report::WriterOptions options;
  options.shown = shown;
  options.category = flags.category;
  options.source_root = flags.source_root;
  options.tool_version = ARCHFIT_VERSION;
  for (ReportTarget& t : report_targets(flags)) {
    auto r = std::make_unique<Report>();
    r->target = std::move(t);
    std::ostream* out = nullptr;
    if (r->target.path.empty()) {
      r->spool = std::make_unique<Spool>();
      out = &r->spool->out();
    } else {
      // A report is made again by the next run: the kernel writes it back in
      // its own time, as it does a report redirected from stdout.
      r->file = std::make_unique<StreamedWrite>(r->target.path, Durability::Kernel);
      out = &r->file->out();
    }
    r->writer = report::make_writer(r->target.format, *out, options);
    reports_.push_back(std::move(r));
  }
  if (reports_.size() > 1 && writes_beside_the_run(cores())) {
    std::vector<report::Writer*> writers;
    for (auto& r : reports_)
      writers.push_back(r->writer.get());
    lanes_ = std::make_unique<ReportLanes>(writers);
  }
}

ReportOutput::~ReportOutput() = default;

template <class F>
void ReportOutput::each_report(F&& f) {
  const unsigned threads = cores();
  std::exception_ptr failure;
  std::mutex failure_mutex;
  parallel_for(reports_.size(), threads, [&](std::size_t i) {
    try {
      f(*reports_[i]);
    } catch (...) {
      std::lock_guard lock(failure_mutex);
      if (!failure) failure = std::current_exception();
    }
  });
  if (failure) std::rethrow_exception(failure);
}

run::RunSink ReportOutput::sink() {
  run::RunSink sink;
  const bool junit = std::any_of(reports_.begin(), reports_.end(), [](const auto& r) {
    return r->target.format == report::Format::Junit;
  });
  if (lanes_) {
    sink.finding = [this](findings::Finding&& f) { lanes_->add(std::move(f)); };
    if (junit) sink.workload = [this](const report::WorkloadSeen& w) { lanes_->add(w); };
    return sink;
  }
  sink.finding = [this](const findings::Finding& f) {
    for (const auto& r : reports_)
      r->writer->add(f);
  };
  if (junit) {
    sink.workload = [this](const report::WorkloadSeen& w) {
      for (const auto& r : reports_)
        r->writer->add_workload(w);
    };
  }
  return sink;
}

bool ReportOutput::shows_diffs() const {
  return std::any_of(reports_.begin(), reports_.end(),
                     [](const auto& r) { return r->target.format == report::Format::Markdown; });
}

void ReportOutput::add_diff(std::string_view diff) {
  if (!shows_diffs()) return;
  // In order, after what the run reported before it.
  if (lanes_) return lanes_->add(ReportDiff{std::string(diff)});
  for (const auto& r : reports_)
    r->writer->add_diff(diff);
}

void ReportOutput::write(const report::Summary& summary) {
  if (lanes_) lanes_->close();
  // Files first: stdout is often a pipe that a reader closes early. Every
  // file is complete before any is put in place: all of them, or none.
  each_report([&summary](Report& r) {
    r.writer->finish(summary);
    if (r.file) r.file->finish();
  });
  for (const auto& r : reports_) {
    if (r->file) r->file->commit();
  }
  for (const auto& r : reports_) {
    if (r->spool) write_stdout(r->spool->content());
  }
}

}  // namespace archfit::cli
