// RAII for libyaml's parser and events, shared by the parser and the tests'
// oracles. Internal to the yaml module.
#pragma once

#include <new>
#include <string_view>

#include <yaml.h>

namespace archfit::yaml::detail {

class Parser {
 public:
  explicit Parser(std::string_view input) {
    if (!yaml_parser_initialize(&parser_)) throw std::bad_alloc();
    yaml_parser_set_input_string(&parser_, reinterpret_cast<const unsigned char*>(input.data()),
                                 input.size());
  }
  ~Parser() { yaml_parser_delete(&parser_); }
  Parser(const Parser&) = delete;
  Parser& operator=(const Parser&) = delete;

  yaml_parser_t* get() { return &parser_; }
  yaml_parser_t* operator->() { return &parser_; }

 private:
  yaml_parser_t parser_;
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
