// markdown: a summary for $GITHUB_STEP_SUMMARY (at most 1 MiB a step): the
// totals, counts by rule, a table of the error and warning findings, and the
// diff of what fix would change in <details>. The table and the diff are cut
// to stay under 1 MiB, with a note saying what was left out. What comes from
// input is text in every cell, and the diff is in a code block.
#include <algorithm>
#include <map>

#include "report/sinks.hpp"
#include "report/writers.hpp"

namespace archfit::report::detail {

namespace {

using findings::Finding;
using findings::Severity;

constexpr std::size_t kLimit = 1000 * 1000;  // a margin under GitHub's 1 MiB

class MarkdownWriter : public Writer {
 public:
  explicit MarkdownWriter(std::ostream& out) : out_(out) {}

  void add(const findings::Finding& f) override {
    by_rule_[f.rule].add(f.severity);
    if (f.severity == findings::Severity::Info) return;
    // The table shows the findings up to the first that does not fit.
    if (rows_left_out_ > 0) {
      ++rows_left_out_;
      return;
    }
    // Every cell from input is text, its punctuation escaped (no link,
    // image, emphasis, code span, HTML or cell boundary comes of it).
    const std::size_t before = table_.size();
    table_ << Words("| ") << Words::severity(f.severity) << Words(" | ") << Untrusted(f.file);
    if (f.line > 0) table_ << Words("\\:") << f.line;
    table_ << Words(" | ") << Untrusted(f.resource.kind) << Words(" ") << Untrusted(f.resource.name)
           << Words(" | `") << Words::rule(f.rule) << Words("` | ") << Untrusted(f.message)
           << Words(" |\n");
    if (table_.size() > kLimit / 2) {
      table_.cut(before);
      ++rows_left_out_;
    }
  }

  // Only what can be shown is kept: at most kLimit bytes are (see finish()).
  void add_diff(std::string_view diff) override {
    if (diff_.size() <= kLimit) diff_ += diff.substr(0, kLimit + 1 - diff_.size());
  }

  void finish(const Summary& summary) override {
    const Counts& c = summary.counts;
    MarkdownText out;
    out << Words("## archfit: ") << Count{c.errors, "error"} << Words(", ")
        << Count{c.warnings, "warning"} << Words(", ") << Count{c.infos, "info"} << Words("\n\n")
        << Count{summary.files, "file"} << Words(", ") << Count{summary.workloads, "workload"}
        << Words(", ") << Count{summary.templates, "pod template"} << Words(".\n");
    if (!by_rule_.empty()) {
      out << Words("\n| rule | errors | warnings | infos |\n|---|---:|---:|---:|\n");
      for (const auto& [rule, n] : by_rule_) {
        out << Words("| `") << Words::rule(rule) << Words("` | ") << n.errors << Words(" | ")
            << n.warnings << Words(" | ") << n.infos << Words(" |\n");
      }
    }
    if (!table_.empty()) {
      out << Words(
          "\n### Findings\n\n| severity | where | resource | rule | message "
          "|\n|---|---|---|---|---|\n");
      out << table_;
      if (rows_left_out_ > 0) {
        out << Words("\n_") << rows_left_out_
            << Words(
                   " more findings are not shown here, to keep this summary under 1 MiB; the full "
                   "report has them._\n");
      }
    }
    out_ << out;
    if (!diff_.empty()) write_diff(out.size());
  }

 private:
  // The diff in a fenced code block, whose fence is longer than any run of
  // backticks in it: nothing in it is markup.
  void write_diff(std::size_t written) {
    std::string shown = for_code_block(Untrusted(diff_));
    std::size_t run = 0;
    std::size_t longest = 0;
    for (char ch : shown) {
      run = ch == '`' ? run + 1 : 0;
      longest = std::max(longest, run);
    }
    const std::size_t fence = std::max<std::size_t>(3, longest + 1);
    const std::size_t framing = 200 + 2 * fence;
    std::size_t room = kLimit > written + framing ? kLimit - written - framing : 0;
    bool cut = shown.size() > room;
    if (cut) {
      std::size_t nl = std::string_view(shown).rfind('\n', room);
      shown.resize(nl == std::string::npos ? 0 : nl + 1);
    }
    out_ << Words("\n<details><summary>What <code>archfit fix</code> would change</summary>\n\n");
    for (std::size_t i = 0; i < fence; ++i)
      out_ << Words("`");
    out_ << Words("diff\n");
    out_.write_encoded(shown);
    out_ << Words("\n");
    for (std::size_t i = 0; i < fence; ++i)
      out_ << Words("`");
    out_ << Words("\n\n</details>\n");
    if (cut) {
      out_ << Words(
          "\n_The diff is cut here to keep this summary under 1 MiB; run `archfit fix --diff` "
          "for all of it._\n");
    }
  }

  MarkdownOut out_;
  std::map<std::string, Counts> by_rule_;
  MarkdownText table_;
  std::size_t rows_left_out_ = 0;
  std::string diff_;  // as archfit fix --diff prints it; encoded when written
};

}  // namespace

std::unique_ptr<Writer> markdown_writer(std::ostream& out, const WriterOptions&) {
  return std::make_unique<MarkdownWriter>(out);
}

}  // namespace archfit::report::detail
