// Text from the input on its way out. Everything archfit prints that it did
// not write itself (file and directory names, resource and container names,
// image references, values, and the messages that quote them) is Untrusted:
// it reaches an output only through the encoder of that output's sink, which
// keeps it data there: never a terminal control, a workflow command, a link,
// markup or bytes a parser refuses (docs/security.md, "What archfit prints").
// Report writers write through outputs that take nothing else
// (report/sinks.hpp).
#pragma once

#include <string>
#include <string_view>

namespace archfit {

class Untrusted {
 public:
  explicit Untrusted(std::string_view text) : text_(text) {}
  // The text as it came: for the encoders, and for code that compares or
  // hashes it without printing it.
  std::string_view raw() const { return text_; }

 private:
  std::string_view text_;
};

// A terminal or a CI log: control characters (C0, DEL, C1, ESC, BEL), the
// Unicode controls that reorder or hide text (bidi overrides and isolates,
// line and paragraph separators) and bytes that are not UTF-8 written as
// escapes (\x1b, \u202e, \xe9); everything else as it is. A backslash stays
// a backslash: text encoded once reads the same encoded again.
std::string for_terminal(Untrusted text);
void append_for_terminal(std::string& out, Untrusted text);

// A GitHub workflow command: terminal-safe, then the runner's own escapes,
// `%`, CR and LF in a message, also `:` and `,` in a property.
std::string for_workflow_message(Untrusted text);
std::string for_workflow_property(Untrusted text);

// Markdown (a job summary, a pull request comment): terminal-safe, then every
// ASCII punctuation character escaped with a backslash and line breaks made
// spaces, so that no link, image, emphasis, code span, HTML or table cell
// boundary comes of it, nor an autolink (a URL's `:` and `.` are escaped, and
// CommonMark and GitHub's autolinker then see no URL).
std::string for_markdown(Untrusted text);
void append_for_markdown(std::string& out, Untrusted text);

// XML 1.0 text or a quoted attribute value: terminal-safe (so no control
// character or line break is left, and no byte that is not UTF-8), then the
// markup characters as entities.
std::string for_xml(Untrusted text);

// A JSON string's content, for a JSON writer to quote and escape: valid UTF-8
// (bytes that are not, as the text \xNN), so that every parser reads it.
std::string for_json(Untrusted text);

// HTML text or a quoted attribute value: terminal-safe, then & < > " ' as
// entities.
std::string for_html(Untrusted text);

// The body of a Markdown fenced code block (a diff): control characters but
// line breaks and tabs, the Unicode controls that reorder or hide text and
// bytes that are not UTF-8 escaped as for a terminal; nothing in a code block
// is markup, and the block's fence is chosen longer than any run of
// backticks in it.
std::string for_code_block(Untrusted text);

// Whether the text is valid UTF-8 (and so needs no change for JSON).
bool is_utf8(std::string_view text);

}  // namespace archfit
