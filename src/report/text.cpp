// text: `file:line:col: severity rule-id: message`, then a summary line. A
// finding in helm-rendered input also names its template:
// `<stdin>:10:7 (charts/web/templates/deployment.yaml): ...`.
#include "report/sinks.hpp"
#include "report/writers.hpp"

namespace archfit::report {

namespace detail {

namespace {

using findings::Finding;
using findings::Severity;

TerminalText line_of(const findings::Finding& f, const WriterOptions& options) {
  TerminalText out;
  out << Untrusted(f.file);
  if (f.line > 0) out << Words(":") << f.line << Words(":") << f.column;
  if (!f.source.empty()) out << Words(" (") << Untrusted(source_path(f, options)) << Words(")");
  out << Words(": ") << Words::severity(f.severity) << Words(" ") << Words::rule(f.rule)
      << Words(": ") << Untrusted(f.message);
  return out;
}

class TextWriter : public Writer {
 public:
  TextWriter(std::ostream& out, const WriterOptions& options) : out_(out), options_(options) {}

  void add(const findings::Finding& f) override {
    if (f.severity < options_.shown) return;
    out_ << line_of(f, options_) << Words("\n");
  }

  void finish(const Summary& summary) override {
    const Counts& c = summary.counts;
    TerminalText line;
    line << Count{c.errors, "error"} << Words(", ") << Count{c.warnings, "warning"} << Words(", ")
         << Count{c.infos, "info"} << Words(" in ") << Count{summary.files, "file"} << Words(" (")
         << Count{summary.workloads, "workload"} << Words(")\n");
    out_ << line;
  }

 private:
  TerminalOut out_;
  WriterOptions options_;
};

}  // namespace

std::unique_ptr<Writer> text_writer(std::ostream& out, const WriterOptions& options) {
  return std::make_unique<TextWriter>(out, options);
}

}  // namespace detail

std::string text_line(const findings::Finding& f, const WriterOptions& options) {
  return detail::line_of(f, options).encoded();
}

}  // namespace archfit::report
