// text: `file:line:col: severity rule-id: message`, then a summary line.
#include "report/writers.hpp"

namespace archfit::report::detail {

namespace {

using placement::Finding;
using placement::Severity;

class TextWriter : public Writer {
 public:
  TextWriter(std::ostream& out, Severity shown) : out_(out), shown_(shown) {}

  void add(const Finding& f) override {
    if (f.severity < shown_) return;
    out_ << f.file;
    if (f.line > 0) out_ << ':' << f.line << ':' << f.column;
    out_ << ": " << placement::severity_name(f.severity) << ' ' << f.rule << ": " << f.message
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
  Severity shown_;
};

}  // namespace

std::unique_ptr<Writer> text_writer(std::ostream& out, const WriterOptions& options) {
  return std::make_unique<TextWriter>(out, options.shown);
}

}  // namespace archfit::report::detail
