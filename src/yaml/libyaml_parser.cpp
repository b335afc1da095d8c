#include <cstdlib>
#include <cstring>
#include <new>

#include "yaml/libyaml.hpp"

namespace archfit::yaml::detail {

namespace {

// The thread's parser, initialised on first use.
struct Kept {
  yaml_parser_t parser{};
  bool ready = false;
  bool busy = false;
  Kept() = default;
  Kept(const Kept&) = delete;
  Kept& operator=(const Kept&) = delete;
  ~Kept() {
    if (ready) yaml_parser_delete(&parser);
  }
};

thread_local Kept kept;

// Leaves `p` as yaml_parser_initialize does, keeping the buffers, queue and
// stacks it has allocated (all of them fields of the public yaml_parser_t).
// What a parse that stopped at an error leaves in them (tokens, tag
// directives) is freed first, as yaml_parser_delete frees it; libyaml
// allocates with malloc.
void rewind(yaml_parser_t& p) {
  while (p.tokens.head != p.tokens.tail)
    yaml_token_delete(p.tokens.head++);
  while (p.tag_directives.top != p.tag_directives.start) {
    --p.tag_directives.top;
    std::free(p.tag_directives.top->handle);
    std::free(p.tag_directives.top->prefix);
  }
  const auto raw = p.raw_buffer;
  const auto buffer = p.buffer;
  const auto tokens = p.tokens;
  const auto indents = p.indents;
  const auto simple_keys = p.simple_keys;
  const auto states = p.states;
  const auto marks = p.marks;
  const auto tag_directives = p.tag_directives;
  std::memset(&p, 0, sizeof p);
  p.raw_buffer = {raw.start, raw.end, raw.start, raw.start};
  p.buffer = {buffer.start, buffer.end, buffer.start, buffer.start};
  p.tokens = {tokens.start, tokens.end, tokens.start, tokens.start};
  p.indents = {indents.start, indents.end, indents.start};
  p.simple_keys = {simple_keys.start, simple_keys.end, simple_keys.start};
  p.states = {states.start, states.end, states.start};
  p.marks = {marks.start, marks.end, marks.start};
  p.tag_directives = {tag_directives.start, tag_directives.end, tag_directives.start};
}

}  // namespace

Parser::Parser(std::string_view input) : parser_(&own_), kept_(false) {
  if (!kept.busy) {
    if (!kept.ready) {
      if (!yaml_parser_initialize(&kept.parser)) throw std::bad_alloc();
      kept.ready = true;
    }
    kept.busy = true;
    kept_ = true;
    parser_ = &kept.parser;
  } else if (!yaml_parser_initialize(&own_)) {
    throw std::bad_alloc();
  }
  yaml_parser_set_input_string(parser_, reinterpret_cast<const unsigned char*>(input.data()),
                               input.size());
}

Parser::~Parser() {
  if (kept_) {
    rewind(*parser_);
    kept.busy = false;
  } else {
    yaml_parser_delete(&own_);
  }
}

}  // namespace archfit::yaml::detail
