// junit: the XML CI test reporters read. A test suite per file, a test case
// per workload (passing when it has no error or warning finding), and in a
// failing case one failure per finding of severity warning or error; infos go
// to the case's system-out. A workload's case is written as soon as its
// findings are all there (they come after it, before the next workloads), to
// a spool of its file's cases, and a file's suite, once its counts are known,
// to a spool of suites until the totals of <testsuites> are: what the writer
// holds in memory is one document's cases, whatever the stream's size.
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include <archfit/base/spool.hpp>

#include "report/sinks.hpp"
#include "report/writers.hpp"

namespace archfit::report::detail {

namespace {

using findings::Finding;
using findings::Severity;

// A workload's kind and name; a document that does not say what it is (one
// archfit could not read) by its place in the file.
void case_name(XmlText& out, const WorkloadSeen& w) {
  const findings::ResourceRef& r = w.resource;
  if (r.kind.empty()) {
    out << Words("document ") << w.document + 1;
    return;
  }
  out << Untrusted(r.kind) << Words(" ");
  if (!r.namespace_name.empty()) out << Untrusted(r.namespace_name) << Words("/");
  out << Untrusted(r.name);
}

struct Case {
  WorkloadSeen workload;
  std::vector<findings::Finding> failures;
  XmlText out;  // infos
};

class JunitWriter : public Writer {
 public:
  explicit JunitWriter(std::ostream& out) : out_(out) {}

  void add_workload(const WorkloadSeen& w) override {
    if (w.file != file_) flush_file();
    // A workload after findings starts the next group: those before have
    // all their findings.
    if (findings_seen_ || (!cases_.empty() && cases_.back().workload.document != w.document))
      flush_cases();
    file_ = w.file;
    cases_.push_back(Case{w, {}, {}});
    by_key_[key_of(w.document, w.resource)] = cases_.size() - 1;
  }

  void add(const findings::Finding& f) override {
    if (f.file != file_) flush_file();
    if (!cases_.empty() && cases_.back().workload.document != f.document) flush_cases();
    file_ = f.file;
    findings_seen_ = true;
    Case* c = nullptr;
    std::string key = key_of(f.document, f.resource);
    if (auto it = by_key_.find(key); it != by_key_.end()) c = &cases_[it->second];
    if (c == nullptr) {  // a finding of no workload read: a case of its own
      cases_.push_back(Case{WorkloadSeen{f.file, f.document, f.line, f.resource}, {}, {}});
      by_key_[key] = cases_.size() - 1;
      c = &cases_.back();
    }
    if (f.severity == findings::Severity::Info) {
      line_of(c->out, f);
      c->out << Words("\n");
    } else {
      c->failures.push_back(f);
    }
  }

  void finish(const Summary&) override {
    flush_file();
    out_ << Words("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
         << Words("<testsuites name=\"archfit\" tests=\"") << tests_ << Words("\" failures=\"")
         << failures_ << Words("\" errors=\"0\" skipped=\"0\">\n");
    out_.flush();
    // The suites were encoded as they were written to the spool.
    suites_.content()([this](std::string_view part) { out_.write_encoded(part); });
    out_ << Words("</testsuites>\n");
  }

 private:
  static void line_of(XmlText& out, const findings::Finding& f) {
    out << Untrusted(f.file);
    if (f.line > 0) out << Words(":") << f.line << Words(":") << f.column;
    out << Words(": ") << Words::severity(f.severity) << Words(" ") << Words::rule(f.rule)
        << Words(": ") << Untrusted(f.message);
  }

  static std::string key_of(std::uint32_t document, const findings::ResourceRef& r) {
    std::string key = std::to_string(document);
    for (const std::string* part : {&r.kind, &r.namespace_name, &r.name}) {
      key += '\0';
      key += *part;
    }
    return key;
  }

  // Writes the cases held to the file's spool.
  void flush_cases() {
    if (!cases_.empty()) {
      if (!cases_spool_) cases_spool_ = std::make_unique<Spool>();
      XmlOut s(cases_spool_->out());
      for (const Case& c : cases_) {
        ++file_tests_;
        if (!c.failures.empty()) ++file_failures_;
        XmlText name;
        case_name(name, c.workload);
        s << Words("    <testcase classname=\"") << Untrusted(file_) << Words("\" name=\"") << name
          << Words("\" file=\"") << Untrusted(file_) << Words("\"");
        if (c.workload.line > 0) s << Words(" line=\"") << c.workload.line << Words("\"");
        if (c.failures.empty() && c.out.empty()) {
          s << Words("/>\n");
          continue;
        }
        s << Words(">\n");
        for (const findings::Finding& f : c.failures) {
          XmlText line;
          line_of(line, f);
          s << Words("      <failure type=\"") << Words::rule(f.rule) << Words("\" message=\"")
            << Untrusted(f.message) << Words("\">") << line << Words("</failure>\n");
        }
        if (!c.out.empty()) s << Words("      <system-out>") << c.out << Words("</system-out>\n");
        s << Words("    </testcase>\n");
      }
    }
    cases_.clear();
    by_key_.clear();
    findings_seen_ = false;
  }

  // Writes the suite of the file read so far.
  void flush_file() {
    flush_cases();
    if (!cases_spool_) return;
    XmlOut s(suites_.out());
    s << Words("  <testsuite name=\"") << Untrusted(file_) << Words("\" tests=\"") << file_tests_
      << Words("\" failures=\"") << file_failures_ << Words("\" errors=\"0\" skipped=\"0\">\n");
    cases_spool_->content()([&s](std::string_view part) { s.write_encoded(part); });
    s << Words("  </testsuite>\n");
    tests_ += file_tests_;
    failures_ += file_failures_;
    file_tests_ = 0;
    file_failures_ = 0;
    cases_spool_.reset();
  }

  XmlOut out_;
  Spool suites_;  // encoded
  std::string file_;
  std::vector<Case> cases_;  // of the group being read
  // The last case of each workload of the group, by document and resource.
  std::unordered_map<std::string, std::size_t> by_key_;
  bool findings_seen_ = false;          // since the group's first workload
  std::unique_ptr<Spool> cases_spool_;  // of file_, encoded
  std::size_t file_tests_ = 0;
  std::size_t file_failures_ = 0;
  std::size_t tests_ = 0;
  std::size_t failures_ = 0;
};

}  // namespace

std::unique_ptr<Writer> junit_writer(std::ostream& out, const WriterOptions&) {
  return std::make_unique<JunitWriter>(out);
}

}  // namespace archfit::report::detail
