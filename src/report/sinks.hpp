// What report writers write with. Each output of a sink takes archfit's own
// words (Words: literals, and names from its own tables), numbers, and text
// from the input only as Untrusted, which it encodes for that sink
// (base/untrusted.hpp); none takes a std::string. No writer writes to its
// std::ostream but through one of these, so none can be handed a raw input
// string (docs/security.md, "What archfit prints").
#pragma once

#include <concepts>
#include <cstddef>
#include <ostream>
#include <string>
#include <string_view>

#include <archfit/base/untrusted.hpp>
#include <archfit/findings/finding.hpp>

namespace archfit::report::detail {

// Text archfit wrote: a literal, checked as it is compiled, or a name from
// its tables.
class Words {
 public:
  template <std::size_t N>
  consteval Words(const char (&text)[N]) : text_(text, N - 1) {}  // NOLINT: implicit on purpose
  // A rule's id; the rule table must have it (an internal error otherwise).
  static Words rule(std::string_view id);
  static Words severity(findings::Severity s);
  // Text of archfit's own tables (the rule table's summaries, the home page).
  static Words table(std::string_view text) { return Words(text); }
  // Text archfit made from its own words and numbers alone: a fingerprint, a
  // URI it percent-encoded, a rule's help. Never text from input.
  static Words made(std::string_view text) { return Words(text); }
  std::string_view text() const { return text_; }

 private:
  explicit Words(std::string_view text) : text_(text) {}
  std::string_view text_;
};

// "1 error", "3 errors".
struct Count {
  std::size_t n;
  Words singular;
};

using Encoder = std::string (*)(Untrusted);

template <class N>
concept Number = std::integral<N> && !std::same_as<N, char> && !std::same_as<N, bool>;

// Text for one sink, built a piece at a time.
template <Encoder Encode>
class Text {
 public:
  Text& operator<<(Words w) {
    text_ += w.text();
    return *this;
  }
  Text& operator<<(Untrusted u) {
    text_ += Encode(u);
    return *this;
  }
  template <Number N>
  Text& operator<<(N n) {
    text_ += std::to_string(n);
    return *this;
  }
  Text& operator<<(Count c) {
    text_ += std::to_string(c.n);
    text_ += ' ';
    text_ += c.singular.text();
    if (c.n != 1) text_ += 's';
    return *this;
  }
  Text& operator<<(const Text& other) {
    text_ += other.text_;
    return *this;
  }
  const std::string& encoded() const { return text_; }
  std::size_t size() const { return text_.size(); }
  bool empty() const { return text_.empty(); }
  // Back to an earlier size (a row that did not fit).
  void cut(std::size_t size) { text_.resize(size); }
  void clear() { text_.clear(); }

 private:
  std::string text_;
};

// An output stream for one sink.
template <Encoder Encode>
class Out {
 public:
  explicit Out(std::ostream& out) : out_(out) {}
  Out& operator<<(Words w) {
    out_ << w.text();
    return *this;
  }
  Out& operator<<(Untrusted u) {
    out_ << Encode(u);
    return *this;
  }
  template <Number N>
  Out& operator<<(N n) {
    out_ << n;
    return *this;
  }
  Out& operator<<(const Text<Encode>& text) {
    out_ << text.encoded();
    return *this;
  }
  // Text already encoded for this sink, held elsewhere (a spool of it).
  void write_encoded(std::string_view encoded) {
    out_.write(encoded.data(), static_cast<std::streamsize>(encoded.size()));
  }
  void flush() { out_.flush(); }

 private:
  std::ostream& out_;
};

inline std::string xml_text(Untrusted u) {
  return for_xml(u);
}

using TerminalText = Text<for_terminal>;
using TerminalOut = Out<for_terminal>;
using MarkdownText = Text<for_markdown>;
using MarkdownOut = Out<for_markdown>;
using XmlText = Text<xml_text>;
using XmlOut = Out<xml_text>;
using HtmlText = Text<for_html>;
using HtmlOut = Out<for_html>;

// One GitHub workflow command: `::name key=value,key=value::message`, its
// property values and message each with their own escapes.
class WorkflowCommand {
 public:
  explicit WorkflowCommand(Words name) { line_ = "::" + std::string(name.text()); }
  WorkflowCommand& property(Words key, Untrusted value) {
    start_property(key);
    line_ += for_workflow_property(value);
    return *this;
  }
  WorkflowCommand& property(Words key, Words value) {
    start_property(key);
    line_ += value.text();
    return *this;
  }
  template <Number N>
  WorkflowCommand& property(Words key, N value) {
    start_property(key);
    line_ += std::to_string(value);
    return *this;
  }
  // More of the last property's value.
  WorkflowCommand& and_then(Words more) {
    line_ += more.text();
    return *this;
  }
  // The message: archfit's words and input's, in any order.
  WorkflowCommand& message(Words w) {
    start_message();
    line_ += w.text();
    return *this;
  }
  WorkflowCommand& message(Untrusted u) {
    start_message();
    line_ += for_workflow_message(u);
    return *this;
  }
  template <Number N>
  WorkflowCommand& message(N n) {
    start_message();
    line_ += std::to_string(n);
    return *this;
  }
  const std::string& line() const { return line_; }

 private:
  void start_property(Words key) {
    line_ += properties_ == 0 ? " " : ",";
    ++properties_;
    line_ += key.text();
    line_ += '=';
  }
  void start_message() {
    if (!in_message_) line_ += "::";
    in_message_ = true;
  }
  std::string line_;
  int properties_ = 0;
  bool in_message_ = false;
};

class WorkflowOut {
 public:
  explicit WorkflowOut(std::ostream& out) : out_(out) {}
  void write(const WorkflowCommand& command) { out_ << command.line() << '\n'; }

 private:
  std::ostream& out_;
};

}  // namespace archfit::report::detail
