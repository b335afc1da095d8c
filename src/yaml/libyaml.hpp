// RAII for libyaml's parser and events. Internal to the yaml module.
#pragma once

#include <string_view>

#include <yaml.h>

namespace archfit::yaml::detail {

// A libyaml parser reading `input`. yaml_parser_initialize allocates some
// 64 KiB of buffers, far more than most documents are long, and a run parses
// tens of thousands of documents: each thread keeps one parser and rewinds it
// for the next document (libyaml_parser.cpp); a second parser on the same
// thread at once is a parser of its own.
class Parser {
 public:
  explicit Parser(std::string_view input);
  ~Parser();
  Parser(const Parser&) = delete;
  Parser& operator=(const Parser&) = delete;

  yaml_parser_t* get() { return parser_; }
  yaml_parser_t* operator->() { return parser_; }

 private:
  yaml_parser_t* parser_;
  bool kept_;  // the thread's parser
  yaml_parser_t own_{};
};

class Event {
 public:
  Event() = default;
  ~Event() { clear(); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;

  // Parses the next event into this one. False on a parse error.
  bool next(Parser& parser) {
    clear();
    live_ = yaml_parser_parse(parser.get(), &event_) != 0;
    return live_;
  }
  const yaml_event_t& operator*() const { return event_; }
  const yaml_event_t* operator->() const { return &event_; }

 private:
  void clear() {
    if (live_) yaml_event_delete(&event_);
    live_ = false;
  }
  yaml_event_t event_{};
  bool live_ = false;
};

}  // namespace archfit::yaml::detail
