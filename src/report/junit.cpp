// junit: the XML CI test reporters read. A test suite per file, a test case
// per workload (passing when it has no error or warning finding), and in a
// failing case one failure per finding of severity warning or error; infos go
// to the case's system-out. Suites are held in a spool until the totals of
// <testsuites> are known.
#include <deque>
#include <vector>

#include <archfit/base/spool.hpp>

#include "report/writers.hpp"

namespace archfit::report::detail {

namespace {

using findings::Finding;
using findings::Severity;

// Text for XML 1.0: markup characters escaped; characters XML cannot hold
// (C0 controls other than tab and line breaks) written as \xNN. In an
// attribute, line breaks are character references (a parser would make them
// spaces).
std::string xml(std::string_view text, bool attribute = false) {
  std::string out;
  for (unsigned char c : text) {
    if (attribute && (c == '\n' || c == '\r')) {
      out += c == '\n' ? "&#10;" : "&#13;";
      continue;
    }
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
          static const char* const kHex = "0123456789abcdef";
          out += "\\x";
          out += kHex[c >> 4];
          out += kHex[c & 15];
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out;
}

// A workload's kind and name; a document that does not say what it is (one
// archfit could not read) by its place in the file.
std::string case_name(const WorkloadSeen& w) {
  const findings::ResourceRef& r = w.resource;
  if (r.kind.empty()) return "document " + std::to_string(w.document + 1);
  return r.kind + " " + (r.namespace_name.empty() ? "" : r.namespace_name + "/") + r.name;
}

struct Case {
  WorkloadSeen workload;
  std::vector<const findings::Finding*> failures;  // point into findings_
  std::string out;                                 // infos
};

class JunitWriter : public Writer {
 public:
  explicit JunitWriter(std::ostream& out) : out_(out) {}

  void add_workload(const WorkloadSeen& w) override {
    if (w.file != file_) flush();
    file_ = w.file;
    cases_.push_back(Case{w, {}, {}});
  }

  void add(const findings::Finding& f) override {
    if (f.file != file_) flush();
    file_ = f.file;
    Case* c = nullptr;
    for (auto it = cases_.rbegin(); it != cases_.rend(); ++it) {
      const WorkloadSeen& w = it->workload;
      if (w.document == f.document && w.resource.kind == f.resource.kind &&
          w.resource.name == f.resource.name &&
          w.resource.namespace_name == f.resource.namespace_name) {
        c = &*it;
        break;
      }
    }
    if (c == nullptr) {  // a finding of no workload read: a case of its own
      cases_.push_back(Case{WorkloadSeen{f.file, f.document, f.line, f.resource}, {}, {}});
      c = &cases_.back();
    }
    if (f.severity == findings::Severity::Info) {
      c->out += line_of(f) + "\n";
    } else {
      findings_.push_back(f);
      c->failures.push_back(&findings_.back());
    }
  }

  void finish(const Summary&) override {
    flush();
    out_ << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
         << "<testsuites name=\"archfit\" tests=\"" << tests_ << "\" failures=\"" << failures_
         << "\" errors=\"0\" skipped=\"0\">\n";
    out_.flush();
    suites_.content()([this](std::string_view part) {
      out_.write(part.data(), static_cast<std::streamsize>(part.size()));
    });
    out_ << "</testsuites>\n";
  }

 private:
  static std::string line_of(const findings::Finding& f) {
    std::string where = f.file;
    if (f.line > 0) where += ":" + std::to_string(f.line) + ":" + std::to_string(f.column);
    return where + ": " + std::string(findings::severity_name(f.severity)) + " " + f.rule + ": " +
           f.message;
  }

  // Writes the suite of the file read so far.
  void flush() {
    if (cases_.empty()) return;
    std::size_t failed = 0;
    for (const Case& c : cases_)
      failed += c.failures.empty() ? 0 : 1;
    std::ostream& s = suites_.out();
    s << "  <testsuite name=\"" << xml(file_) << "\" tests=\"" << cases_.size() << "\" failures=\""
      << failed << "\" errors=\"0\" skipped=\"0\">\n";
    for (const Case& c : cases_) {
      s << "    <testcase classname=\"" << xml(file_) << "\" name=\"" << xml(case_name(c.workload))
        << "\" file=\"" << xml(file_) << "\"";
      if (c.workload.line > 0) s << " line=\"" << c.workload.line << "\"";
      if (c.failures.empty() && c.out.empty()) {
        s << "/>\n";
        continue;
      }
      s << ">\n";
      for (const findings::Finding* f : c.failures) {
        s << "      <failure type=\"" << xml(f->rule) << "\" message=\"" << xml(f->message, true)
          << "\">" << xml(line_of(*f)) << "</failure>\n";
      }
      if (!c.out.empty()) s << "      <system-out>" << xml(c.out) << "</system-out>\n";
      s << "    </testcase>\n";
    }
    s << "  </testsuite>\n";
    tests_ += cases_.size();
    failures_ += failed;
    cases_.clear();
    findings_.clear();
  }

  std::ostream& out_;
  Spool suites_;
  std::string file_;
  std::vector<Case> cases_;                 // of file_
  std::deque<findings::Finding> findings_;  // of file_; a deque, so that pointers stay
  std::size_t tests_ = 0;
  std::size_t failures_ = 0;
};

}  // namespace

std::unique_ptr<Writer> junit_writer(std::ostream& out, const WriterOptions&) {
  return std::make_unique<JunitWriter>(out);
}

}  // namespace archfit::report::detail
