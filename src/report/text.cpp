// text: `file:line:col: severity rule-id: message`, then a summary line. A
// finding in helm-rendered input also names its template:
// `<stdin>:10:7 (charts/web/templates/deployment.yaml): ...`.
#include "report/writers.hpp"

namespace archfit::report::detail {

namespace {

using findings::Finding;
using findings::Severity;

class TextWriter : public Writer {
 public:
  TextWriter(std::ostream& out, const WriterOptions& options) : out_(out), options_(options) {}

  void add(const findings::Finding& f) override {
    if (f.severity < options_.shown) return;
    out_ << f.file;
    if (f.line > 0) out_ << ':' << f.line << ':' << f.column;
    if (!f.source.empty()) out_ << " (" << source_path(f, options_) << ')';
    out_ << ": " << findings::severity_name(f.severity) << ' ' << f.rule << ": " << f.message
         << '\n';
  }

  void finish(const Summary& summary) override {
    const Counts& c = summary.counts;
    out_ << plural(c.errors, "error") << ", " << plural(c.warnings, "warning") << ", "
         << plural(c.infos, "info") << " in " << plural(summary.files, "file") << " ("
         << plural(summary.workloads, "workload") << ")\n";
  }

 private:
  std::ostream& out_;
  WriterOptions options_;
};

}  // namespace

std::unique_ptr<Writer> text_writer(std::ostream& out, const WriterOptions& options) {
  return std::make_unique<TextWriter>(out, options);
}

}  // namespace archfit::report::detail
