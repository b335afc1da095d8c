// markdown: a summary for $GITHUB_STEP_SUMMARY (at most 1 MiB a step): the
// totals, counts by rule, a table of the error and warning findings, and the
// diff of what fix would change in <details>. The table and the diff are cut
// to stay under 1 MiB, with a note saying what was left out.
#include <array>
#include <map>

#include "report/writers.hpp"

namespace archfit::report::detail {

namespace {

using findings::Finding;
using findings::Severity;

constexpr std::size_t kLimit = 1000 * 1000;  // a margin under GitHub's 1 MiB

// A table cell, appended to `out`: '|' escaped, line breaks as spaces,
// HTML's < > & escaped; runs of other bytes copied whole.
void append_cell(std::string& out, std::string_view text) {
  static constexpr auto kSpecial = [] {
    std::array<bool, 256> special{};
    for (unsigned char c : std::string_view("|\n\r<>&"))
      special[c] = true;
    return special;
  }();
  std::size_t from = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (!kSpecial[static_cast<unsigned char>(c)]) continue;
    out.append(text, from, i - from);
    from = i + 1;
    switch (c) {
      case '|':
        out += "\\|";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      default:  // a line break
        out += ' ';
    }
  }
  out.append(text, from);
}

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
    const std::size_t before = table_.size();
    table_ += "| ";
    table_ += findings::severity_name(f.severity);
    table_ += " | `";
    append_cell(table_, f.file);
    if (f.line > 0) {
      table_ += ':';
      table_ += std::to_string(f.line);
    }
    table_ += "` | ";
    append_cell(table_, f.resource.kind);
    table_ += ' ';
    append_cell(table_, f.resource.name);
    table_ += " | `";
    table_ += f.rule;
    table_ += "` | ";
    append_cell(table_, f.message);
    table_ += " |\n";
    if (table_.size() > kLimit / 2) {
      table_.resize(before);
      ++rows_left_out_;
    }
  }

  // Only what can be shown is kept: at most kLimit bytes are (see finish()).
  void add_diff(std::string_view diff) override {
    if (diff_.size() <= kLimit) diff_ += diff.substr(0, kLimit + 1 - diff_.size());
  }

  void finish(const Summary& summary) override {
    const Counts& c = summary.counts;
    std::string out = "## archfit: " + plural(c.errors, "error") + ", " +
                      plural(c.warnings, "warning") + ", " + plural(c.infos, "info") + "\n\n" +
                      plural(summary.files, "file") + ", " + plural(summary.workloads, "workload") +
                      ", " + plural(summary.templates, "pod template") + ".\n";
    if (!by_rule_.empty()) {
      out += "\n| rule | errors | warnings | infos |\n|---|---:|---:|---:|\n";
      for (const auto& [rule, n] : by_rule_) {
        out += "| `" + rule + "` | " + std::to_string(n.errors) + " | " +
               std::to_string(n.warnings) + " | " + std::to_string(n.infos) + " |\n";
      }
    }
    if (!table_.empty()) {
      out +=
          "\n### Findings\n\n| severity | where | resource | rule | message "
          "|\n|---|---|---|---|---|\n";
      out += table_;
      if (rows_left_out_ > 0) {
        out += "\n_" + std::to_string(rows_left_out_) +
               " more findings are not shown here, to keep this summary under 1 MiB; the full "
               "report has them._\n";
      }
    }
    if (!diff_.empty()) {
      std::string fence = "```";
      while (diff_.find(fence) != std::string::npos)
        fence += '`';
      std::string tail = "\n" + fence + "\n\n</details>\n";
      std::string head =
          "\n<details><summary>What <code>archfit fix</code> would change</summary>\n\n" + fence +
          "diff\n";
      std::size_t room = kLimit > out.size() + head.size() + tail.size() + 200
                             ? kLimit - out.size() - head.size() - tail.size() - 200
                             : 0;
      std::string_view shown(diff_);
      bool cut = shown.size() > room;
      if (cut)
        shown = shown.substr(
            0, shown.rfind('\n', room) == std::string_view::npos ? 0 : shown.rfind('\n', room) + 1);
      out += head;
      out += shown;
      out += tail;
      if (cut)
        out +=
            "\n_The diff is cut here to keep this summary under 1 MiB; run `archfit fix --diff` "
            "for all of it._\n";
    }
    out_ << out;
  }

 private:
  std::ostream& out_;
  std::map<std::string, Counts> by_rule_;
  std::string table_;
  std::size_t rows_left_out_ = 0;
  std::string diff_;
};

}  // namespace

std::unique_ptr<Writer> markdown_writer(std::ostream& out, const WriterOptions&) {
  return std::make_unique<MarkdownWriter>(out);
}

}  // namespace archfit::report::detail
