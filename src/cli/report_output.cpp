#include "cli/report_output.hpp"

#include <archfit/base/atomic_write.hpp>
#include <archfit/base/file.hpp>

namespace archfit::cli {

void add_report_flags(CLI::App* cmd, ReportFlags& flags) {
  std::string names;
  for (const std::string& n : report::format_names())
    names += (names.empty() ? "" : ", ") + n;
  cmd->add_option("--format", flags.format, "Report format: " + names)
      ->check(CLI::IsMember(report::format_names()))
      ->capture_default_str();
  cmd->add_option("-o,--output", flags.output, "Write the report to FILE instead of stdout");
  cmd->add_option("--category", flags.category,
                  "SARIF: the run's category (automationDetails.id), one per analysis of the "
                  "same commit, e.g. the environment");
  cmd->add_option("--source-root", flags.source_root,
                  "For helm-rendered input: the directory holding the charts, so that findings "
                  "point at DIR/<chart>/templates/<file> (from `# Source:` lines or helm 4's "
                  "postrender-filename annotation)");
}

ReportOutput::ReportOutput(const ReportFlags& flags, findings::Severity shown)
    : flags_(flags), format_(report::parse_format(flags.format)) {
  report::WriterOptions options;
  options.shown = shown;
  options.category = flags.category;
  options.source_root = flags.source_root;
  options.tool_version = ARCHFIT_VERSION;
  writer_ = report::make_writer(format_, spool_.out(), options);
}

run::RunSink ReportOutput::sink() {
  run::RunSink sink;
  sink.finding = [this](const findings::Finding& f) { writer_->add(f); };
  if (format_ == report::Format::Junit) {
    sink.workload = [this](const report::WorkloadSeen& w) { writer_->add_workload(w); };
  }
  return sink;
}

void ReportOutput::write(const report::Summary& summary) {
  writer_->finish(summary);
  if (flags_.output.empty()) {
    write_stdout(spool_.content());
  } else {
    write_atomically(flags_.output, spool_.content());
  }
}

}  // namespace archfit::cli
