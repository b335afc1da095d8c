#include <algorithm>
#include <filesystem>
#include <set>

#include <archfit/app/reports.hpp>
#include <archfit/base/error.hpp>
#include <archfit/base/text.hpp>

namespace archfit::app {

namespace {

// A format name (report::parse_format's, or the readiness report's) and the
// path it goes to ("" = the output) as a target.
ReportTarget target_of(const std::string& name, std::string path) {
  ReportTarget t;
  t.path = std::move(path);
  if (report::is_readiness_name(name)) {
    t.readiness = report::readiness_style(name, t.path);
    return t;
  }
  try {
    t.format = report::parse_format(name);
  } catch (const Error& e) {
    std::string readiness;
    for (const std::string& n : report::readiness_names())
      readiness += ", " + n;
    fail(ErrorKind::Usage, e.message() + readiness);
  }
  return t;
}

ReportTarget parse_target(const std::string& text) {
  const std::size_t eq = text.find('=');
  const std::string name = text.substr(0, eq);
  std::string path = eq != std::string::npos ? text.substr(eq + 1) : std::string();
  if (path == "-") path.clear();
  ReportTarget t;
  try {
    t = target_of(name, path);
  } catch (const Error& e) {
    fail(ErrorKind::Usage, "--report " + archfit::quoted(text) + ": " + e.message());
  }
  if (eq != std::string::npos && t.path.empty() && text.size() == eq + 1) {
    fail(ErrorKind::Usage, "--report " + archfit::quoted(text) +
                               ": no file after '='; give FORMAT=PATH, or FORMAT alone for stdout");
  }
  return t;
}

}  // namespace

std::vector<ReportTarget> report_targets(const ReportRequest& request) {
  if (request.reports.empty()) {
    return {target_of(request.format.empty() ? "text" : request.format, request.output)};
  }
  if (!request.format.empty() || !request.output.empty()) {
    fail(ErrorKind::Usage,
         "--report cannot be combined with --format or -o; give each report as --report "
         "FORMAT[=PATH]");
  }
  std::vector<ReportTarget> out;
  std::set<std::string> files;
  bool to_output = false;
  for (const std::string& text : request.reports) {
    ReportTarget t = parse_target(text);
    if (t.path.empty()) {
      if (to_output) {
        fail(ErrorKind::Usage, "--report " + archfit::quoted(text) +
                                   ": another report already goes to stdout; give this one "
                                   "a file, as FORMAT=PATH");
      }
      to_output = true;
    } else if (!files.insert(std::filesystem::path(t.path).lexically_normal().string()).second) {
      fail(ErrorKind::Usage, "--report " + archfit::quoted(text) +
                                 ": another report already goes to " + archfit::quoted(t.path));
    }
    out.push_back(std::move(t));
  }
  return out;
}

Reports::Reports(const ReportRequest& request, findings::Severity shown, Output& out) : out_(out) {
  report::WriterOptions options;
  options.shown = shown;
  options.category = request.category;
  options.source_root = request.source_root;
  options.notices_before = request.github_notices_before;
  options.tool_version = ARCHFIT_VERSION;
  for (ReportTarget& t : report_targets(request)) {
    auto r = std::make_unique<Report>();
    r->target = std::move(t);
    std::ostream* stream = nullptr;
    if (r->target.path.empty()) {
      r->spool = std::make_unique<Spool>();
      stream = &r->spool->out();
    } else {
      // A report is made again by the next run: the kernel writes it back in
      // its own time, as it does a report redirected from stdout.
      r->file = std::make_unique<StreamedWrite>(r->target.path, Durability::Kernel);
      stream = &r->file->out();
    }
    r->stream = stream;
    if (!r->target.readiness) r->writer = report::make_writer(r->target.format, *stream, options);
    reports_.push_back(std::move(r));
  }
}

Reports::~Reports() = default;

run::RunSink Reports::sink() {
  run::RunSink sink;
  sink.finding = [this](const findings::Finding& f) {
    for (const auto& r : reports_) {
      if (r->writer) r->writer->add(f);
    }
  };
  const bool junit = std::any_of(reports_.begin(), reports_.end(), [](const auto& r) {
    return r->writer && r->target.format == report::Format::Junit;
  });
  if (junit) {
    sink.workload = [this](const report::WorkloadSeen& w) {
      for (const auto& r : reports_) {
        if (r->writer) r->writer->add_workload(w);
      }
    };
  }
  return sink;
}

bool Reports::wants_readiness() const {
  return std::any_of(reports_.begin(), reports_.end(),
                     [](const auto& r) { return r->target.readiness.has_value(); });
}

bool Reports::shows_diffs() const {
  return std::any_of(reports_.begin(), reports_.end(), [](const auto& r) {
    return r->writer && r->target.format == report::Format::Markdown;
  });
}

void Reports::add_diff(std::string_view diff) {
  for (const auto& r : reports_) {
    if (r->writer) r->writer->add_diff(diff);
  }
}

void Reports::write(const report::Summary& summary, const report::Readiness* readiness) {
  // Files first: the output is often a pipe that a reader closes early.
  // Every file is complete before any is put in place: all of them, or none.
  for (const auto& r : reports_) {
    if (r->writer) {
      r->writer->finish(summary);
    } else {
      if (readiness == nullptr) fail(ErrorKind::Internal, "the readiness report was not counted");
      report::write_readiness(*readiness, *r->target.readiness, *r->stream);
    }
    if (r->file) r->file->finish();
  }
  for (const auto& r : reports_) {
    if (r->file) r->file->commit();
  }
  for (const auto& r : reports_) {
    if (r->spool) out_.write(r->spool->content());
  }
}

}  // namespace archfit::app
